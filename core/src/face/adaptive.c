#include "adaptive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "precision_acc.h"

static json_t *half_width_json(double h) {
  return isfinite(h) ? json_real(h) : json_null();
}

/* Every interval the rule reads, each with the reason it stopped: its own precision, or the
 * experiment's reason. */
static json_t *targets(const rigor_stop_judgement_t *j, double bound, const char *reason) {
  json_t *out = json_array();
  for (size_t i = 0; out && i < j->n; i++) {
    const rigor_stop_target_t *x = &j->targets[i];
    const char *stop = x->half_width <= bound ? "precision" : reason;
    json_t *t =
        x->contrast
            ? json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:s?, s:I, s:o, s:s}", "kind", "contrast",
                        "axis", x->axis, "level", x->level, "reference", x->reference, "cell",
                        x->cell ? x->cell : "", "point", (json_int_t)x->point, "point_label",
                        x->point_label, "blocks", (json_int_t)x->units, "half_width_log",
                        half_width_json(x->half_width), "stop", stop)
            : json_pack("{s:s, s:I, s:s?, s:I, s:s?, s:I, s:o, s:s}", "kind", "row", "variant",
                        (json_int_t)x->variant, "variant_label", x->variant_label, "point",
                        (json_int_t)x->point, "point_label", x->point_label, "runs",
                        (json_int_t)x->units, "half_width_log", half_width_json(x->half_width),
                        "stop", stop);
    if (!t || json_array_append_new(out, t) != 0) {
      json_decref(out);
      return NULL;
    }
  }
  return out;
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
  else if (reason == RIGOR_STOP_DECIDED)
    fprintf(stderr,
            "rigor: %s: every verdict at the %g%% threshold decided beyond doubt after %u blocks "
            "(%s)\n",
            job->name, job->decided * 100, blocks, w);
  else if (reason == RIGOR_STOP_MAX)
    fprintf(stderr, "rigor: %s: precision %g%% not reached in the %u blocks of max (%s)\n",
            job->name, job->precision * 100, blocks, w);
  else
    fprintf(stderr, "rigor: %s: the deadline stopped it after %u complete blocks (%s)\n", job->name,
            blocks, w);
}

int rigor_adaptive_after_block(void *arg, const rigor_block_report_t *b, json_t **record, char *err,
                               size_t errlen) {
  rigor_adaptive_t *ad = arg;
  const rigor_job_t *job = b->job;
  bool adaptive = job->precision > 0;
  if (!adaptive && b->event != RIGOR_BLOCK_DEADLINE) return 1;
  if (b->event == RIGOR_BLOCK_DONE && b->blocks < job->min_blocks) return 1;
  int rc = rigor_adaptive_catch_up(ad, job, err, errlen);
  if (rc) return rc < 0 ? rc : RIGOR_EIO;
  rigor_stop_judgement_t j;
  if (rigor_precision_acc_judge(ad->acc, job->name, &j) != 0) {
    snprintf(err, errlen, "%s: out of memory judging the precision of %s", job->output, job->name);
    return RIGOR_ENOMEM;
  }
  /* The precision on the log scale the intervals are kept in. */
  double bound = adaptive ? log1p(job->precision) : -1;
  bool reached = adaptive && j.worst <= bound;
  /* Every block from min on is a look at the verdicts; the k-th reads a wider interval. */
  uint32_t look = b->blocks >= job->min_blocks ? b->blocks - job->min_blocks + 1 : 1;
  bool decided = adaptive && job->decided > 0 && rigor_stop_all_decided(&j, job->decided, look);
  rigor_stop_reason_t reason;
  if (b->event == RIGOR_BLOCK_DONE) {
    if ((!reached && !decided) || !square_done(job, b->blocks)) {
      /* Signs of progress towards the answer: how wide the widest interval still is. */
      if (!ad->quiet && adaptive) {
        if (isfinite(j.worst))
          fprintf(stderr, "rigor: %s: %u blocks, widest interval ±%.2f%% (target ±%g%%)\n",
                  job->name, b->blocks, expm1(j.worst) * 100, job->precision * 100);
        else
          fprintf(stderr, "rigor: %s: %u blocks, no interval yet (target ±%g%%)\n", job->name,
                  b->blocks, job->precision * 100);
      }
      rigor_stop_judgement_free(&j);
      return 1;
    }
    reason = reached ? RIGOR_STOP_PRECISION : RIGOR_STOP_DECIDED;
  } else if (b->event == RIGOR_BLOCK_LAST) {
    reason = reached ? RIGOR_STOP_PRECISION : decided ? RIGOR_STOP_DECIDED : RIGOR_STOP_MAX;
  } else {
    reason = RIGOR_STOP_DEADLINE;
  }
  json_t *listed = j.known ? targets(&j, bound, rigor_stop_reason_names[reason]) : NULL;
  rigor_stop_record_t x = {
      .experiment = job->name,
      .blocks = b->blocks,
      .min_blocks = job->min_blocks,
      .max_blocks = job->n_blocks,
      .precision = job->precision,
      .decided = job->decided,
      .reason = reason,
      .worst_half_width_log = j.worst,
      .targets = listed,
  };
  *record = j.known && !listed ? NULL : rigor_record_stop(&x);
  rigor_stop_judgement_free(&j);
  if (!*record) {
    snprintf(err, errlen, "%s: out of memory writing the stop record of %s", job->output,
             job->name);
    return RIGOR_ENOMEM;
  }
  say(ad, job, b->blocks, reason, x.worst_half_width_log);
  return 0;
}
