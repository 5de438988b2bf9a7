#include "stream_pages.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int stream_pages_advise(void *p, size_t bytes, bool huge) {
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
  return madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) == 0 ? 0 : -errno;
#else
  (void)p, (void)bytes, (void)huge;
  return -ENOSYS;
#endif
}

/* The part of mapping [start, end) that lies in [lo, hi), as a fraction of the mapping. */
static double overlap(uintptr_t start, uintptr_t end, uintptr_t lo, uintptr_t hi) {
  const uintptr_t from = start > lo ? start : lo, to = end < hi ? end : hi;
  return to > from && end > start ? (double)(to - from) / (double)(end - start) : 0.0;
}

/* smaps lists each mapping as "START-END perms ..." followed by its fields in kB. madvise splits
 * a mapping at the advised range's ends, so each array is a whole mapping of its own; a mapping
 * that only overlaps a range counts in proportion to the overlap. One pass serves every range. */
long long stream_pages_huge_bytes(void *const *starts, const size_t *bytes, int n) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  char line[512];
  uintptr_t start = 0, end = 0;
  double total = 0;
  while (fgets(line, sizeof line, f)) {
    uintptr_t s, e;
    long long kb;
    if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &s, &e) == 2)
      start = s, end = e;
    else if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1 && kb > 0)
      for (int k = 0; k < n; k++)
        total += (double)kb * 1024 *
                 overlap(start, end, (uintptr_t)starts[k], (uintptr_t)starts[k] + bytes[k]);
  }
  fclose(f);
  return (long long)total;
}

void stream_pages_thp_mode(char *out, size_t cap) {
  snprintf(out, cap, "unknown");
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f) return;
  char line[128];
  if (fgets(line, sizeof line, f)) {
    const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
    if (open && close) snprintf(out, cap, "%.*s", (int)(close - open - 1), open + 1);
  }
  fclose(f);
}
