#include "points.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

void rigor_point_set_free(const rigor_plugin_t *p, rigor_point_set_t *s) {
  for (uint32_t i = 0; i < s->n; i++) {
    if (s->structs && s->structs[i]) {
      rigor_params_clear(p, s->structs[i]);
      free(s->structs[i]);
    }
    if (s->labels) free(s->labels[i]);
  }
  if (s->base) rigor_params_clear(p, s->base);
  free(s->base);
  free(s->structs);
  free(s->labels);
  json_decref(s->objs);
  memset(s, 0, sizeof *s);
}

int rigor_point_set_build(const rigor_plugin_t *p, const json_t *params, const json_t *sweep,
                          rigor_point_set_t *s, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  size_t size = p->params_size ? p->params_size : 1;
  s->base = calloc(1, size);
  if (!s->base) {
    snprintf(err, errlen, "cannot allocate %zu bytes for the params", size);
    return RIGOR_ENOMEM;
  }
  int rc = rigor_params_fill(p, params, s->base, err, errlen);
  if (rc < 0) return rc;
  s->objs = rigor_sweep_points(sweep);
  if (!s->objs) {
    snprintf(err, errlen, "cannot expand the sweep");
    return RIGOR_EINVAL;
  }
  uint32_t n = (uint32_t)json_array_size(s->objs);
  s->structs = calloc(n ? n : 1, sizeof *s->structs);
  s->labels = calloc(n ? n : 1, sizeof *s->labels);
  if (!s->structs || !s->labels) {
    snprintf(err, errlen, "cannot allocate the sweep's %u points", n);
    return RIGOR_ENOMEM;
  }
  s->n = n;
  for (uint32_t i = 0; i < n; i++) {
    json_t *point = json_array_get(s->objs, i);
    json_t *values = json_deep_copy(params);
    json_object_update(values, point);
    s->structs[i] = calloc(1, size);
    rc = s->structs[i] ? rigor_params_fill(p, values, s->structs[i], err, errlen) : RIGOR_ENOMEM;
    json_decref(values);
    if (rc == RIGOR_ENOMEM && !s->structs[i])
      snprintf(err, errlen, "cannot allocate %zu bytes for point %u", size, i);
    if (rc < 0) return rc;
    s->labels[i] = rigor_point_label(p, point);
  }
  return 0;
}
