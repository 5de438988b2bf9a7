/* The params structs one run hands to its plugin: the base struct and one struct per sweep point,
 * built from a variant's canonical settings. The run's process builds them for init; the config
 * language builds the same for the plugin's check_params and commands hooks. */
#ifndef RIGOR_RUN_PARAMS_H
#define RIGOR_RUN_PARAMS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "rigor/plugin.h"

typedef struct rigor_run_params {
  void *base;     /* the params, without the sweep */
  void **structs; /* one per point: the base with the point's values applied */
  char **labels;  /* "bytes=1MiB, vars.size=1K" per point */
  json_t *objs;   /* the points as objects {axis: value} */
  uint32_t n;
  rigor_points_t points; /* {n, structs}, as init receives them */
} rigor_run_params_t;

/* From canonical `params` and `sweep` (experiment.h). On failure everything built is released and
 * err says why. */
int rigor_run_params_build(const rigor_plugin_t *d, const json_t *params, const json_t *sweep,
                           rigor_run_params_t *out, char *err, size_t errlen);
void rigor_run_params_free(const rigor_plugin_t *d, rigor_run_params_t *rp);

#endif
