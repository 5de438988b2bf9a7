/* The params structs a run hands its plugin: the base params, and one struct per sweep point
 * (the base with the point's values applied), with the points' labels. */
#ifndef RIGOR_POINTS_H
#define RIGOR_POINTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "rigor/plugin.h"

typedef struct rigor_point_set {
  void *base;
  void **structs;
  char **labels;
  json_t *objs; /* the points as {axis: value} objects */
  uint32_t n;
} rigor_point_set_t;

/* From canonical params and sweep. On failure the set is left for rigor_point_set_free. */
int rigor_point_set_build(const rigor_plugin_t *p, const json_t *params, const json_t *sweep,
                          rigor_point_set_t *out, char *err, size_t errlen);
void rigor_point_set_free(const rigor_plugin_t *p, rigor_point_set_t *s);

#endif
