/* The settings the judge reads back from a results file's experiment record, each parsed once
 * here: every variant's gate (its own, over the experiment's, over its defaults'), whether its
 * runs calibrated their iterations, and its low-clock threshold. */
#include <math.h>
#include <string.h>

#include "analysis_internal.h"
#include "json_util.h"

static void gate_defaults(rigor_gate_settings_t *g) {
  *g = (rigor_gate_settings_t){
      .cv_max = RIGOR_GATE_CV_MAX_DEFAULT,
      .min_samples = RIGOR_GATE_MIN_SAMPLES_DEFAULT,
      .statistic = RIGOR_GATE_STATISTIC_DEFAULT,
      .change_significance = NAN,
      .change_min_magnitude = NAN,
      .change_window = NAN,
  };
}

/* The members `gate` holds replace those of g. */
static void overlay(rigor_gate_settings_t *g, const json_t *gate) {
  if (!json_is_object(gate)) return;
  double v = rigor_json_number_at(gate, "cv_max");
  if (isfinite(v)) g->cv_max = v;
  v = rigor_json_number_at(gate, "min_samples");
  if (isfinite(v) && v >= 0) g->min_samples = (uint32_t)v;
  const char *s = json_string_value(json_object_get(gate, "statistic"));
  if (s) g->statistic = strcmp(s, "robust") == 0 ? RIGOR_GATE_ROBUST : RIGOR_GATE_CV;
  const json_t *expect = json_object_get(gate, "expect");
  if (expect) g->expect = expect;
  if (isfinite(v = rigor_json_number_at(gate, "change_significance"))) g->change_significance = v;
  if (isfinite(v = rigor_json_number_at(gate, "change_min_magnitude"))) g->change_min_magnitude = v;
  if (isfinite(v = rigor_json_number_at(gate, "change_window"))) g->change_window = v;
}

void rigor__read_variant_settings(rigor_exp_analysis_t *e) {
  const json_t *cfg = json_object_get(e->record, "config");
  gate_defaults(&e->gate);
  overlay(&e->gate, json_object_get(json_object_get(cfg, "defaults"), "gate"));
  overlay(&e->gate, json_object_get(cfg, "gate"));
  for (size_t v = 0; v < e->n_variants; v++) {
    rigor_variant_info_t *vi = &e->variants[v];
    vi->gate = e->gate;
    overlay(&vi->gate, json_object_get(vi->settings, "gate"));
    const char *iters =
        json_string_value(json_object_get(json_object_get(vi->settings, "timing"), "iters"));
    vi->iters_auto = iters && strcmp(iters, "auto") == 0;
    const json_t *threshold =
        json_object_get(json_object_get(json_object_get(vi->settings, "environment"), "telemetry"),
                        "clock_threshold");
    vi->clock_threshold = json_is_number(threshold) ? json_number_value(threshold) : NAN;
  }
}

const rigor_gate_settings_t *rigor_gate_of(const rigor_exp_analysis_t *e, uint32_t v) {
  return v < e->n_variants ? &e->variants[v].gate : &e->gate;
}
