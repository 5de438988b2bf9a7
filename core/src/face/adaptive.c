#include "adaptive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "contrast.h"

static json_t *half_width_json(double h) {
  return isfinite(h) ? json_real(h) : json_null();
}

/* Every interval the rule reads, each with the reason it stopped: its own precision, or the
 * experiment's reason. */
static json_t *targets(const rigor_exp_analysis_t *e, double bound, const char *reason) {
  json_t *out = json_array();
  rigor_contrasts_t *c = NULL;
  if (rigor_contrasts_build(e, NULL, NULL, &c) != 0) return out;
  for (size_t i = 0; i < c->n; i++) {
    const rigor_contrast_t *x = &c->items[i];
    json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:s?, s:I, s:o, s:s}",
                                         "kind", "contrast", "axis", x->axis, "level", x->label,
                                         "reference", x->ref_label, "cell", x->cell ? x->cell : "",
                                         "point", (json_int_t)x->point, "point_label",
                                         x->point_label, "blocks", (json_int_t)x->n_pairs,
                                         "half_width_log", half_width_json(x->half_width), "stop",
                                         x->half_width <= bound ? "precision" : reason));
  }
  for (size_t r = 0; c->n == 0 && r < e->n_rows; r++) {
    const rigor_row_t *w = &e->rows[r];
    json_array_append_new(out,
                          json_pack("{s:s, s:I, s:s?, s:I, s:s?, s:I, s:o, s:s}", "kind", "row",
                                    "variant", (json_int_t)w->variant, "variant_label",
                                    w->variant_label, "point", (json_int_t)w->point, "point_label",
                                    w->point_label, "runs", (json_int_t)w->figure.n_runs,
                                    "half_width_log", half_width_json(w->figure.half_width), "stop",
                                    w->figure.half_width <= bound ? "precision" : reason));
  }
  rigor_contrasts_free(c);
  return out;
}

static const rigor_exp_analysis_t *find_exp(const rigor_analysis_t *a, const char *name) {
  for (size_t i = 0; a && i < a->n_exps; i++)
    if (strcmp(a->exps[i].name, name) == 0) return &a->exps[i];
  return NULL;
}

/* The design's square is complete, or max cannot complete the next one. */
static bool square_done(const rigor_job_t *job, uint32_t blocks) {
  uint32_t rows = job->square_rows;
  if (!rows || blocks % rows == 0) return true;
  return (blocks / rows + 1) * rows > job->n_blocks;
}

static void say(const rigor_adaptive_t *ad, const rigor_job_t *job, uint32_t blocks,
                rigor_stop_reason_t reason, double worst) {
  if (ad && ad->quiet) return;
  char w[64] = "no interval yet";
  if (isfinite(worst)) snprintf(w, sizeof w, "worst 95%% half-width %.2f%%", expm1(worst) * 100);
  if (reason == RIGOR_STOP_PRECISION)
    fprintf(stderr, "rigor: %s: precision %g%% reached after %u blocks (%s)\n", job->name,
            job->precision * 100, blocks, w);
  else if (reason == RIGOR_STOP_MAX)
    fprintf(stderr, "rigor: %s: precision %g%% not reached in the %u blocks of max (%s)\n",
            job->name, job->precision * 100, blocks, w);
  else
    fprintf(stderr, "rigor: %s: the deadline stopped it after %u complete blocks (%s)\n", job->name,
            blocks, w);
}

bool rigor_adaptive_after_block(void *arg, const rigor_block_report_t *b, json_t **record) {
  const rigor_adaptive_t *ad = arg;
  const rigor_job_t *job = b->job;
  bool adaptive = job->precision > 0;
  if (!adaptive && b->event != RIGOR_BLOCK_DEADLINE) return true;
  if (b->event == RIGOR_BLOCK_DONE && b->blocks < job->min_blocks) return true;
  rigor_analysis_t *a = NULL;
  char err[1024];
  const char *path = job->output;
  if (rigor_analysis_load(&path, 1, &a, err, sizeof err) != 0) a = NULL;
  const rigor_exp_analysis_t *e = find_exp(a, job->name);
  /* The precision on the log scale the intervals are kept in. */
  double bound = adaptive ? log1p(job->precision) : -1;
  double worst = e ? rigor_precision_worst(e, NULL, NULL) : INFINITY;
  bool reached = adaptive && worst <= bound;
  rigor_stop_reason_t reason;
  if (b->event == RIGOR_BLOCK_DONE) {
    if (!reached || !square_done(job, b->blocks)) {
      rigor_analysis_free(a);
      return true;
    }
    reason = RIGOR_STOP_PRECISION;
  } else if (b->event == RIGOR_BLOCK_LAST) {
    reason = reached ? RIGOR_STOP_PRECISION : RIGOR_STOP_MAX;
  } else {
    reason = RIGOR_STOP_DEADLINE;
  }
  rigor_stop_record_t x = {
      .experiment = job->name,
      .blocks = b->blocks,
      .min_blocks = job->min_blocks,
      .max_blocks = job->n_blocks,
      .precision = job->precision,
      .reason = reason,
      .worst_half_width_log = worst,
      .targets = e ? targets(e, bound, rigor_stop_reason_names[reason]) : NULL,
  };
  *record = rigor_record_stop(&x);
  say(ad, job, b->blocks, reason, worst);
  rigor_analysis_free(a);
  return false;
}
