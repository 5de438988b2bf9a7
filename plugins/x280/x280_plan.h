/* What one point runs: how many threads and clusters, which chunks each thread walks, and where
 * the output lies against the input. Pure arithmetic, shared by the kernels and the tests. */
#ifndef X280_PLAN_H
#define X280_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "x280_params.h"

#define X280_CHUNK_BYTES 4096u
#define X280_CHUNK_WORDS (X280_CHUNK_BYTES / sizeof(uint32_t))
#define X280_LINE_BYTES  64u

typedef struct x280_plan {
  x280_pattern_t pattern;
  x280_layout_t layout;
  size_t words;
  size_t chunks; /* ceil(words / X280_CHUNK_WORDS); the last chunk may be short */
  unsigned threads;
  unsigned clusters;
  unsigned cores_per_cluster;
  size_t alias_stride;
  size_t out_offset;  /* bytes from the input's start to the output's start */
  size_t sums_offset; /* bytes from the input's start to the chunk sums */
  size_t arena_bytes; /* one cluster's input, output and chunk sums; 0 without arrays */
} x280_plan_t;

/* Chunks first, first + step, ... below end. */
typedef struct x280_walk {
  size_t first;
  size_t end;
  size_t step;
} x280_walk_t;

/* Fills `plan` from a point; returns 0, or RIGOR_EINVAL with the reason in `why`. */
int x280_plan_make(x280_plan_t *plan, const x280_params_t *p, char *why, size_t why_len);
/* Whether the pattern reads and writes the arrays (the others only count in per-core slots). */
bool x280_plan_has_arrays(const x280_plan_t *plan);
/* The contiguous block of chunks cluster `c` owns. */
void x280_plan_block(const x280_plan_t *plan, unsigned cluster, size_t *first, size_t *end);
/* The words of that block: [*first, *end). */
void x280_plan_block_words(const x280_plan_t *plan, unsigned cluster, size_t *first, size_t *end);
unsigned x280_plan_cluster_of(const x280_plan_t *plan, unsigned thread);
unsigned x280_plan_cluster_size(const x280_plan_t *plan, unsigned cluster);
/* The chunks `thread` handles under the plan's layout. */
x280_walk_t x280_plan_walk(const x280_plan_t *plan, unsigned thread);
/* The words of chunk `chunk`: [*first, *end). */
void x280_plan_chunk_words(const x280_plan_t *plan, size_t chunk, size_t *first, size_t *end);

#endif
