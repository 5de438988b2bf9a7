/* A cold cache before each measured window: every core streams its share of a buffer at least
 * twice the last-level cache, writing each line, so the arrays' lines leave every level. */
#ifndef X280_COLD_H
#define X280_COLD_H

#include "x280_state.h"

/* The eviction buffer's size for a last-level cache of `llc_bytes` (unknown: 0). */
size_t x280_cold_bytes(uint64_t llc_bytes);
/* Streams the buffer on every pool thread; returns 0, or the stop code when the host asked. */
int x280_cold_evict(x280_state_t *s);

#endif
