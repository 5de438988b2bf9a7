/* Which stores the copy uses. `nt_stores` switches every storing kernel to non-temporal stores;
 * the copy alone also decides by size, as glibc's memcpy does: STREAM's own copy loop compiles
 * to a memcpy call, which streams past the caches above a threshold, so a copy with plain
 * stores would measure a different program on the CPUs where that matters. */
#ifndef STREAM_STORES_H
#define STREAM_STORES_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { STREAM_COPY_AUTO = 0, STREAM_COPY_PLAIN, STREAM_COPY_NT } stream_copy_stores_t;

/* The array size above which `auto` copies with non-temporal stores: 3/4 of the last-level
 * cache, glibc's non-temporal threshold for a copy that one thread's share of the cache cannot
 * hold (here the whole team shares the whole cache). 0 when the cache is unknown: `auto` then
 * stays plain. */
uint64_t stream_copy_nt_threshold(uint64_t llc_bytes);

/* Whether the copy writes `array_bytes` with non-temporal stores: `plain` and `nt` say so;
 * `auto` follows `nt_stores` when it is set, else the threshold. */
bool stream_copy_uses_nt(stream_copy_stores_t mode, bool nt_stores, uint64_t array_bytes,
                         uint64_t llc_bytes);

#endif
