/* The default array length, by STREAM's rule: each array at least 4 times the total last-level
 * cache, and long enough that the shortest kernel lasts at least 20 clock ticks. */
#ifndef STREAM_ELEMENTS_H
#define STREAM_ELEMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "stream_contract.h"

typedef struct stream_sizing {
  size_t elements;
  uint64_t llc_bytes; /* total last-level cache found, 0 when none */
  int llc_level;      /* its level (3 for L3), 0 when none */
  char rule[128];     /* how `elements` was chosen, for the identity record */
} stream_sizing_t;

/* STREAM's own default length when no cache is found. */
#define STREAM_FALLBACK_ELEMENTS 10000000u

/* Bandwidth no single host reaches (10 TB/s): the tick rule assumes it, so the shortest kernel
 * still spans 20 ticks on the fastest memory. */
#define STREAM_BANDWIDTH_CEILING 10.0e12

void stream_default_elements(stream_dtype_t dtype, stream_sizing_t *out);

#endif
