#include "jobs.h"

#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"

/* The labels of the interleaved axis's levels, in arm order. */
static json_t *arm_levels(const json_t *resolved, const char *axis) {
  json_t *levels = json_array();
  size_t i, k;
  json_t *a, *level;
  json_array_foreach(json_object_get(json_object_get(resolved, "matrix"), "axes"), i, a) {
    if (strcmp(json_string_value(json_object_get(a, "axis")), axis) != 0) continue;
    json_array_foreach(json_object_get(a, "values"), k, level) {
      json_array_append(levels, json_object_get(level, "label"));
    }
  }
  return levels;
}

static int job_of(const rigor_experiment_t *e, rigor_job_t *j) {
  rigor_job_variant_t *variants = calloc(e->n_variants ? e->n_variants : 1, sizeof *variants);
  if (!variants) return RIGOR_ENOMEM;
  for (uint32_t i = 0; i < e->n_variants; i++) {
    const json_t *build = json_object_get(e->variants[i].settings, "build");
    variants[i] = (rigor_job_variant_t){
        .label = e->variants[i].label,
        .axes = e->variants[i].axes,
        .settings = e->variants[i].settings,
        .timing = &e->variants[i].timing,
        .environment = &e->variants[i].environment,
        .build = json_string_value(json_object_get(build, "label")),
        .plugin_dir = json_string_value(json_object_get(build, "plugin_path")),
    };
  }
  const char *plugin = json_string_value(json_object_get(e->resolved, "plugin"));
  const json_t *deadline = json_object_get(json_object_get(e->resolved, "settings"), "deadline");
  if (!plugin && e->n_variants)
    plugin = json_string_value(json_object_get(e->variants[0].settings, "plugin"));
  *j = (rigor_job_t){
      .name = e->name,
      .source = e->source,
      .hash = e->hash,
      .plugin = plugin ? plugin : "",
      .output = e->output,
      .config = e->resolved,
      .schedule = rigor_schedule_describe(&e->order, &e->schedule),
      .variants = variants,
      .n_variants = e->n_variants,
      .cells = e->schedule.cells,
      .n_blocks = e->schedule.n_blocks,
      .seed = e->order.seed,
      .runs_commands = e->runs_commands,
      .deadline_s = json_is_number(deadline) ? json_number_value(deadline) : 0,
      .min_blocks = e->order.precision > 0 ? e->order.min_blocks : e->schedule.n_blocks,
      .precision = e->order.precision,
      .decided = e->order.decided,
      .square_rows = e->schedule.square_rows,
  };
  const rigor_interleave_t *il = &e->interleave;
  if (il->axis && j->schedule) {
    j->n_cells = il->n_cells;
    j->n_arms = il->n_arms;
    j->arms = il->arms;
    j->arm_square = il->square;
    j->arm_rows = il->square_rows;
    j->arm_offsets = il->offsets;
    json_t *levels = arm_levels(e->resolved, il->axis);
    rigor_interleave_describe(il, levels, (json_t *)j->schedule);
    json_decref(levels);
  }
  return j->schedule ? 0 : RIGOR_ENOMEM;
}

int rigor_jobs_build(const rigor_config_t *cfg, rigor_jobs_t *out) {
  out->n = 0;
  out->jobs = calloc(cfg->n_experiments ? cfg->n_experiments : 1, sizeof *out->jobs);
  if (!out->jobs) return RIGOR_ENOMEM;
  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    int rc = job_of(&cfg->experiments[i], &out->jobs[out->n]);
    out->n++;
    if (rc) {
      rigor_jobs_free(out);
      return rc;
    }
  }
  return 0;
}

void rigor_jobs_free(rigor_jobs_t *jobs) {
  for (size_t i = 0; i < jobs->n; i++) {
    free((void *)jobs->jobs[i].variants);
    json_decref((json_t *)jobs->jobs[i].schedule);
  }
  free(jobs->jobs);
  jobs->jobs = NULL;
  jobs->n = 0;
}
