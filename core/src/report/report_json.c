#include <math.h>

#include "columns.h"
#include "context.h"
#include "report.h"

/* JSON has no NaN: a missing statistic is null. */
static json_t *real(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row_json(const rigor_row_t *w) {
  json_t *row = json_pack("{s:I, s:I, s:O?}", "variant", (json_int_t)w->variant, "point",
                          (json_int_t)w->point, "point_params", w->point_params);
  if (row) rigor_stat_json(w, row);
  if (!row) return NULL;
  if (w->has_iterations)
    json_object_set_new(row, "iterations",
                        json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)w->iter_n,
                                  "min", real(w->iter_min), "p50", real(w->iter_p50), "p95",
                                  real(w->iter_p95), "p99", real(w->iter_p99), "max",
                                  real(w->iter_max), "cv", real(w->iter_cv)));
  json_t *metrics = json_object();
  for (size_t m = 0; m < w->n_metrics; m++)
    json_object_set_new(metrics, w->metrics[m].name,
                        json_pack("{s:I, s:o, s:o, s:s}", "n", (json_int_t)w->metrics[m].n,
                                  "median", real(w->metrics[m].median), "min",
                                  real(w->metrics[m].min), "kind",
                                  w->metrics[m].flag ? "flag" : "figure"));
  json_object_set_new(row, "metrics", metrics);
  json_object_set_new(json_object_get(row, "figure"), "exact", json_boolean(w->figure.exact));
  json_t *expect = json_array();
  for (size_t k = 0; k < w->n_expect; k++) {
    const rigor_expectation_t *x = &w->expect[k];
    json_array_append_new(expect,
                          json_pack("{s:s, s:s, s:s?, s:o, s:o, s:b}", "figure", x->figure, "op",
                                    x->op, "text", x->text, "reference", real(x->reference),
                                    "value", real(x->value), "met", x->met));
  }
  json_object_set_new(row, "expect", expect);
  json_object_set_new(row, "below_expectation", json_boolean(w->below_expectation));
  if (w->has_variance) {
    const rigor_variance_t *v = &w->variance;
    json_object_set_new(
        row, "variance",
        json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I}", "runs", (json_int_t)v->runs,
                  "cycles", (json_int_t)v->cycles, "mean", real(v->mean), "s1_sq", real(v->s1_sq),
                  "s2_sq", real(v->s2_sq), "t2_sq", real(v->t2_sq), "half_width",
                  real(v->half_width), "level", real(v->level), "suggest_cycles",
                  (json_int_t)w->suggest_cycles, "suggest_runs", (json_int_t)w->suggest_runs));
    json_object_set_new(json_object_get(row, "variance"), "between_run_variance",
                        json_boolean(v->t2_sq > 0));
    if (w->has_node_variance) {
      json_t *nodes =
          json_pack("{s:I, s:o, s:o, s:o, s:o, s:b}", "nodes", (json_int_t)v->nodes, "node_runs",
                    real(v->node_runs), "s3_sq", real(v->s3_sq), "t3_sq", real(v->t3_sq),
                    "node_share", real(v->node_share), "between_node_variance", v->t3_sq > 0);
      json_object_update(json_object_get(row, "variance"), nodes);
      json_decref(nodes);
    }
  }
  if (w->nodes) json_object_set_new(row, "nodes", json_string(w->nodes));
  return row;
}

static json_t *array_of(const double *x, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++)
    json_array_append_new(a, real(x[i]));
  return a;
}

/* One object per run, for callers that judge runs rather than rows (x280's exact checks). */
static json_t *runs_json(const rigor_exp_analysis_t *e) {
  json_t *runs = json_array();
  for (size_t k = 0; k < e->n_runs; k++) {
    const rigor_run_info_t *r = &e->runs[k];
    json_t *times = json_array();
    for (size_t i = 0; i < e->n_rows; i++)
      for (size_t j = 0; j < e->rows[i].n; j++)
        if (e->rows[i].run_of[j] == r->run && r->status == RIGOR_RUN_OK)
          json_array_append_new(times,
                                json_pack("{s:I, s:I, s:o}", "point", (json_int_t)e->rows[i].point,
                                          "cycle", (json_int_t)e->rows[i].cycle_of[j], "time_s",
                                          real(e->rows[i].times[j])));
    const char *label = r->variant < e->n_variants ? e->variants[r->variant].label : NULL;
    json_array_append_new(
        runs, json_pack("{s:I, s:I, s:I, s:I, s:I, s:s?, s:s, s:s?, s:b, s:b, s:I, s:I, s:o}",
                        "run", (json_int_t)r->run, "attempt", (json_int_t)r->attempt, "block",
                        (json_int_t)r->block, "position", (json_int_t)r->position, "variant",
                        (json_int_t)r->variant, "label", label, "status",
                        rigor_run_status_names[r->status], "reason", r->reason, "ok",
                        r->status == RIGOR_RUN_OK, "exact", r->n_wrong == 0 && r->n_samples > 0,
                        "samples", (json_int_t)r->n_samples, "wrong", (json_int_t)r->n_wrong,
                        "times", times));
  }
  return runs;
}

static json_t *variants_json(const rigor_exp_analysis_t *e) {
  json_t *out = json_array();
  for (size_t v = 0; v < e->n_variants; v++) {
    const rigor_variant_info_t *vi = &e->variants[v];
    json_t *counts = json_object();
    for (int s = 0; s < RIGOR_RUN_STATUS_COUNT; s++)
      json_object_set_new(counts, rigor_run_status_names[s],
                          json_integer((json_int_t)vi->status_count[s]));
    json_array_append_new(out,
                          json_pack("{s:I, s:s?, s:O?, s:o, s:O, s:O}", "index",
                                    (json_int_t)vi->index, "label", vi->label, "axes", vi->axes,
                                    "runs", counts, "reasons", vi->reasons, "flags", vi->flags));
  }
  return out;
}

static json_t *effects_json(const rigor_exp_analysis_t *e) {
  json_t *out = json_array();
  for (size_t d = 0; d < e->n_effects; d++) {
    const rigor_design_effect_t *x = &e->effects[d];
    json_t *o =
        json_pack("{s:I, s:s?, s:o, s:o, s:o, s:b}", "point", (json_int_t)x->point, "point_label",
                  x->point_label, "treatment_spread", real(x->treatment_spread), "position",
                  array_of(x->position, x->n_positions), "position_spread",
                  real(x->position_spread), "warn_position", x->warn_position);
    if (x->has_carryover) {
      json_object_set_new(o, "carryover", array_of(x->carryover, x->n_preceding));
      json_object_set_new(o, "carryover_spread", real(x->carryover_spread));
      json_object_set_new(o, "warn_carryover", json_boolean(x->warn_carryover));
    }
    json_array_append_new(out, o);
  }
  return out;
}

static json_t *contrasts_json(const rigor_exp_analysis_t *e, const rigor_exp_contrasts_t *given) {
  rigor_exp_contrasts_t own = {0};
  const rigor_exp_contrasts_t *c = given;
  if (!c && rigor_report_contrasts(e, NULL, 0, &own) == 0) c = &own;
  json_t *out = json_array();
  for (size_t i = 0; c && i < c->n; i++) {
    json_t *part = rigor_contrasts_json(c->sets[i]);
    json_array_extend(out, part);
    json_decref(part);
  }
  rigor_exp_contrasts_free(&own);
  return out;
}

json_t *rigor_report_json(const rigor_analysis_t *a, const rigor_exp_contrasts_t *contrasts) {
  json_t *exps = json_array();
  for (size_t x = 0; x < a->n_exps; x++) {
    const rigor_exp_analysis_t *e = &a->exps[x];
    json_t *rows = json_array();
    for (size_t r = 0; r < e->n_rows; r++)
      json_array_append_new(rows, row_json(&e->rows[r]));
    json_array_append_new(
        exps,
        json_pack("{s:s, s:s, s:s?, s:o, s:o, s:o, s:o, s:o, s:o, s:O?, s:O?, s:o}", "name",
                  e->name, "source", e->source, "design", e->design, "context",
                  rigor_context_json(e), "variants", variants_json(e), "rows", rows, "contrasts",
                  contrasts_json(e, contrasts ? &contrasts[x] : NULL), "effects", effects_json(e),
                  "runs", runs_json(e), "builds", json_object_get(e->record, "builds"), "stop",
                  e->stop, "notes", rigor_report_notes(a, e)));
  }
  return json_pack("{s:s, s:o}", "schema", "rigor.report/1", "experiments", exps);
}
