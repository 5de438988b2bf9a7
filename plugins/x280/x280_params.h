/* The plugin's params struct and its enums, in the order of the schema's choices. */
#ifndef X280_PARAMS_H
#define X280_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  X280_MAP = 0,
  X280_MAP_VECTOR,
  X280_MAP_HEAVY,
  X280_REDUCTION,
  X280_PREFIX_SUM,
  X280_PREFIX_SUM_SERIAL,
  X280_FALSE_SHARING_PACKED,
  X280_FALSE_SHARING_PADDED,
  X280_FORK_JOIN_POOL,
  X280_FORK_JOIN_OMP,
  X280_PATTERN_COUNT
} x280_pattern_t;

typedef enum { X280_CHUNKS = 0, X280_QUARTERS, X280_ALIASED } x280_layout_t;

typedef struct x280_params {
  int32_t pattern;
  int32_t layout;
  uint64_t words;
  uint64_t alias_stride;
  uint64_t cores;
  uint64_t cores_per_cluster;
  uint64_t rounds;
  uint64_t seed;
  double deadline;
  uint64_t spin_us;
  bool cold;
  bool plant_error;
  bool prefetch;
  int32_t proc_bind; /* x280_bind_t */
} x280_params_t;

extern const char *const x280_pattern_names[];
extern const char *const x280_layout_names[];

#endif
