/* Transparent huge pages for the arrays. A streaming kernel walks a new 4 KiB page every 512
 * doubles; with 2 MiB pages the page walks all but vanish and the hardware prefetchers are not
 * stopped at every 4 KiB boundary. The kernel grants them on first touch, when the range was
 * advised (THP mode `madvise`) or always (mode `always`); what it granted is read back from
 * /proc/self/smaps, since an advice is only a request. */
#ifndef STREAM_PAGES_H
#define STREAM_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/* Asks for huge pages over [p, p + bytes) (`huge`), or for base pages only (MADV_NOHUGEPAGE).
 * p and bytes are multiples of the huge-page size. Returns 0 or -errno. */
int stream_pages_advise(void *p, size_t bytes, bool huge);

/* The bytes of the n ranges [starts[k], starts[k] + bytes[k]) that lie in anonymous huge pages
 * now, from one read of /proc/self/smaps; -1 when it cannot be read. */
long long stream_pages_huge_bytes(void *const *starts, const size_t *bytes, int n);

/* The system's THP mode, the bracketed word of /sys/kernel/mm/transparent_hugepage/enabled
 * (`always`, `madvise`, `never`), or "unknown". Writes at most cap bytes into out. */
void stream_pages_thp_mode(char *out, size_t cap);

#endif
