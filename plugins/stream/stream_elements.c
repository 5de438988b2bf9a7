#include "stream_elements.h"

#include <hwloc.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

/* Sum of the highest-level data caches, or 0. */
static uint64_t last_level_cache(int *level) {
  static const hwloc_obj_type_t levels[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                            HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
  hwloc_topology_t topo;
  uint64_t total = 0;
  *level = 0;
  if (hwloc_topology_init(&topo) != 0) return 0;
  if (hwloc_topology_load(topo) == 0) {
    for (size_t i = 0; i < sizeof levels / sizeof levels[0] && total == 0; i++) {
      const int n = hwloc_get_nbobjs_by_type(topo, levels[i]);
      for (int k = 0; k < n; k++) {
        hwloc_obj_t cache = hwloc_get_obj_by_type(topo, levels[i], (unsigned)k);
        total += cache->attr->cache.size;
        *level = (int)cache->attr->cache.depth;
      }
    }
  }
  hwloc_topology_destroy(topo);
  return total;
}

static size_t tick_elements(stream_dtype_t dtype) {
  struct timespec res;
  if (clock_getres(CLOCK_MONOTONIC, &res) != 0) return 0;
  const double tick_s = (double)res.tv_sec + 1e-9 * (double)res.tv_nsec;
  /* The lightest kernels move two arrays. */
  const double bytes_per_element = 2.0 * (double)stream_dtype_size(dtype);
  return (size_t)ceil(20.0 * tick_s * STREAM_BANDWIDTH_CEILING / bytes_per_element);
}

void stream_default_elements(stream_dtype_t dtype, stream_sizing_t *out) {
  *out = (stream_sizing_t){0};
  out->llc_bytes = last_level_cache(&out->llc_level);
  const size_t ticks = tick_elements(dtype);
  size_t cache_rule;
  if (out->llc_bytes > 0) {
    cache_rule =
        (size_t)((4 * out->llc_bytes + stream_dtype_size(dtype) - 1) / stream_dtype_size(dtype));
    snprintf(out->rule, sizeof out->rule, "4 x %llu bytes of L%d cache",
             (unsigned long long)out->llc_bytes, out->llc_level);
  } else {
    cache_rule = STREAM_FALLBACK_ELEMENTS;
    snprintf(out->rule, sizeof out->rule, "no cache found: STREAM's default length");
  }
  out->elements = cache_rule;
  if (ticks > cache_rule) {
    out->elements = ticks;
    snprintf(out->rule, sizeof out->rule, "20 clock ticks at %.0f GB/s",
             STREAM_BANDWIDTH_CEILING * 1e-9);
  }
}
