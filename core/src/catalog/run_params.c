#include "run_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

void rigor_run_params_free(const rigor_plugin_t *d, rigor_run_params_t *rp) {
  for (uint32_t i = 0; i < rp->n; i++) {
    if (rp->structs && rp->structs[i]) {
      rigor_params_clear(d, rp->structs[i]);
      free(rp->structs[i]);
    }
    if (rp->labels) free(rp->labels[i]);
  }
  if (rp->base) {
    rigor_params_clear(d, rp->base);
    free(rp->base);
  }
  free(rp->structs);
  free(rp->labels);
  json_decref(rp->objs);
  memset(rp, 0, sizeof *rp);
}

int rigor_run_params_build(const rigor_plugin_t *d, const json_t *params, const json_t *sweep,
                           rigor_run_params_t *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  size_t size = d->params_size ? d->params_size : 1;
  out->objs = rigor_sweep_points(sweep);
  if (!out->objs) {
    snprintf(err, errlen, "cannot expand the sweep");
    return RIGOR_EINVAL;
  }
  uint32_t n = (uint32_t)json_array_size(out->objs);
  out->base = calloc(1, size);
  out->structs = calloc(n ? n : 1, sizeof *out->structs);
  out->labels = calloc(n ? n : 1, sizeof *out->labels);
  out->n = n;
  int rc = out->base && out->structs && out->labels ? 0 : RIGOR_ENOMEM;
  if (rc)
    snprintf(err, errlen, "cannot allocate %zu bytes for the params (and %u points)", size, n);
  if (!rc) rc = rigor_params_fill(d, params, out->base, err, errlen);
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    json_t *point = json_array_get(out->objs, i);
    json_t *values = json_deep_copy(params);
    out->structs[i] = calloc(1, size);
    rc = values && out->structs[i] ? json_object_update(values, point) : RIGOR_ENOMEM;
    if (!rc)
      rc = rigor_params_fill(d, values, out->structs[i], err, errlen);
    else
      snprintf(err, errlen, "cannot allocate %zu bytes for point %u's params", size, i);
    json_decref(values);
    if (!rc && !(out->labels[i] = rigor_point_label(d, point))) {
      snprintf(err, errlen, "out of memory");
      rc = RIGOR_ENOMEM;
    }
  }
  if (rc) {
    rigor_run_params_free(d, out);
    return rc;
  }
  out->points = (rigor_points_t){n, (const void *const *)out->structs};
  return 0;
}
