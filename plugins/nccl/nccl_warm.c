#include "nccl_warm.h"

#include <stdbool.h>

#include "nccl_tables.h"

static bool same_series(const nccl_params_t *a, const nccl_params_t *b) {
  return a->collective == b->collective && a->dtype == b->dtype && a->op == b->op &&
         a->root == b->root && a->gpus_per_process == b->gpus_per_process &&
         a->device == b->device && a->poll_timeout == b->poll_timeout;
}

static uint32_t add(nccl_params_t *out, uint32_t cap, uint32_t count, const nccl_params_t *first,
                    uint64_t bytes) {
  if (count < cap) {
    out[count] = *first;
    out[count].bytes = bytes;
    out[count].placement = NCCL_PLACE_OUT;
    out[count].graph = false;
  }
  return count + 1;
}

uint32_t nccl_warm_schedule(const nccl_params_t *const *points, uint32_t n, nccl_params_t *out,
                            uint32_t cap) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < n; i++) {
    bool seen = false;
    for (uint32_t j = 0; j < i && !seen; j++)
      seen = same_series(points[j], points[i]);
    if (seen) continue;
    uint64_t lo = points[i]->bytes;
    uint64_t hi = lo;
    for (uint32_t j = i + 1; j < n; j++) {
      if (!same_series(points[j], points[i])) continue;
      lo = points[j]->bytes < lo ? points[j]->bytes : lo;
      hi = points[j]->bytes > hi ? points[j]->bytes : hi;
    }
    if (lo == 0) {
      count = add(out, cap, count, points[i], 0);
      lo = 1;
    }
    for (uint64_t size = lo; size <= hi; size *= 2) {
      count = add(out, cap, count, points[i], size);
      if (size > UINT64_MAX / 2) break;
    }
  }
  return count;
}
