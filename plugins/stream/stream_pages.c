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

/* smaps lists each mapping as "START-END perms ..." followed by its fields in kB. madvise splits
 * a mapping at the advised range's ends, so the arrays are whole mappings of their own; a
 * mapping that only overlaps the range counts in proportion to the overlap. */
long long stream_pages_huge_bytes(const void *p, size_t bytes) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  const uintptr_t lo = (uintptr_t)p, hi = lo + bytes;
  char line[512];
  uintptr_t start = 0, end = 0;
  bool inside = false;
  long long total = 0;
  while (fgets(line, sizeof line, f)) {
    uintptr_t s, e;
    if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &s, &e) == 2) {
      start = s, end = e;
      inside = e > lo && s < hi;
      continue;
    }
    long long kb;
    if (inside && sscanf(line, "AnonHugePages: %lld kB", &kb) == 1 && kb > 0) {
      const uintptr_t from = start > lo ? start : lo, to = end < hi ? end : hi;
      const long long whole = kb * 1024;
      total += end > start
                   ? (long long)((double)whole * (double)(to - from) / (double)(end - start))
                   : whole;
    }
  }
  fclose(f);
  return total;
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
