#include "pto_vf_repeats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pto_vf_schema.h"

int pto_vf_repeats_init(pto_vf_repeats_t *r, size_t n_points) {
  r->points = calloc(n_points, sizeof *r->points);
  r->n_points = r->points ? n_points : 0;
  return r->points ? 0 : -ENOMEM;
}

void pto_vf_repeats_free(pto_vf_repeats_t *r) {
  for (size_t i = 0; i < r->n_points; i++)
    free(r->points[i].totals);
  free(r->points);
  r->points = NULL;
  r->n_points = 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Repeats of one point: identical totals mean a deterministic timing path. */
void pto_vf_repeats_fill(pto_vf_repeats_t *r, size_t point, bool record, uint64_t total,
                         double *v) {
  pto_vf_history_t *h = &r->points[point];
  if (record) {
    if (h->n == h->cap) {
      size_t cap = h->cap ? 2 * h->cap : 16;
      uint64_t *t = realloc(h->totals, cap * sizeof *t);
      if (t) {
        h->totals = t;
        h->cap = cap;
      }
    }
    if (h->n < h->cap) h->totals[h->n++] = total;
  }
  v[PTO_VF_M_REPEATS] = (double)h->n;
  if (h->n == 0) {
    v[PTO_VF_M_DETERMINISTIC] = v[PTO_VF_M_MEDIAN] = v[PTO_VF_M_SPREAD] = NAN;
    return;
  }
  uint64_t *sorted = malloc(h->n * sizeof *sorted);
  if (!sorted) {
    v[PTO_VF_M_DETERMINISTIC] = v[PTO_VF_M_MEDIAN] = v[PTO_VF_M_SPREAD] = NAN;
    return;
  }
  memcpy(sorted, h->totals, h->n * sizeof *sorted);
  qsort(sorted, h->n, sizeof *sorted, cmp_u64);
  v[PTO_VF_M_SPREAD] = (double)(sorted[h->n - 1] - sorted[0]);
  v[PTO_VF_M_DETERMINISTIC] = sorted[h->n - 1] == sorted[0] ? 1.0 : 0.0;
  v[PTO_VF_M_MEDIAN] = h->n % 2 ? (double)sorted[h->n / 2]
                                : ((double)sorted[h->n / 2 - 1] + (double)sorted[h->n / 2]) / 2.0;
  free(sorted);
}
