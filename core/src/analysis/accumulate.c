#include "analysis_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

int rigor__grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t cap2 = *cap ? *cap : 8;
  while (cap2 < need)
    cap2 *= 2;
  void *q = realloc(*p, cap2 * elem);
  if (!q) return RIGOR_ENOMEM;
  memset((char *)q + *cap * elem, 0, (cap2 - *cap) * elem);
  *p = q;
  *cap = cap2;
  return 0;
}

double rigor__median_of(const dvec_t *d) {
  return rigor_stats_median(d->v, d->n);
}

rigor_variant_info_t *rigor__variant_info(rigor_exp_analysis_t *e, uint32_t v) {
  if (v >= e->n_variants) {
    size_t cap = e->n_variants;
    if (rigor__grow((void **)&e->variants, &cap, (size_t)v + 1, sizeof *e->variants)) return NULL;
    for (size_t i = e->n_variants; i <= v; i++) {
      e->variants[i].index = (uint32_t)i;
      e->variants[i].reasons = json_array();
      e->variants[i].flags = json_object();
    }
    e->n_variants = (size_t)v + 1;
  }
  return &e->variants[v];
}
