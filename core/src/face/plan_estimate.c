#include "plan_estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader.h"
#include "timing.h"
#include "units.h"

/* The ok runs of one experiment that its results file already holds, per variant label. */
typedef struct past_runs {
  const rigor_experiment_t *e;
  double *sum_s; /* by variant index */
  unsigned *n;
  double all_sum_s;
  unsigned all_n;
} past_runs_t;

static int take_run(void *arg, json_t *rec, const char *type, size_t line) {
  (void)line;
  past_runs_t *p = arg;
  if (!type || strcmp(type, "run") != 0) return 0;
  const char *name = json_string_value(json_object_get(rec, "experiment"));
  const char *status = json_string_value(json_object_get(rec, "status"));
  const char *label = json_string_value(json_object_get(rec, "label"));
  double s = json_number_value(json_object_get(rec, "elapsed_s"));
  if (!name || strcmp(name, p->e->name) != 0 || !status || strcmp(status, "ok") != 0 ||
      !isfinite(s) || s <= 0)
    return 0;
  p->all_sum_s += s;
  p->all_n++;
  for (uint32_t v = 0; label && v < p->e->n_variants; v++)
    if (strcmp(p->e->variants[v].label, label) == 0) {
      p->sum_s[v] += s;
      p->n[v]++;
    }
  return 0;
}

/* The sweep's in-process points: the product of its axes' lengths. */
static double sweep_points(const json_t *settings) {
  double points = 1;
  size_t i;
  json_t *axis;
  json_array_foreach(json_object_get(settings, "sweep"), i, axis) {
    size_t n = json_array_size(json_object_get(axis, "values"));
    points *= n ? (double)n : 1;
  }
  return points;
}

/* The runs of the first `blocks` blocks, summed with per_run(variant). */
static double schedule_sum(const rigor_experiment_t *e, uint32_t blocks, const double *per_run) {
  double sum = 0;
  for (uint32_t b = 0; b < blocks; b++)
    for (uint32_t p = 0; p < e->schedule.n_variants; p++)
      sum += per_run[e->schedule.cells[(size_t)b * e->schedule.n_variants + p]];
  return sum;
}

static void print_range(FILE *out, const char *prefix, double lo, double hi) {
  char a[32], b[32];
  rigor_format_clock(a, sizeof a, lo);
  rigor_format_clock(b, sizeof b, hi);
  if (strcmp(a, b) == 0)
    fprintf(out, "%s%s", prefix, a);
  else
    fprintf(out, "%s%s to %s", prefix, a, b);
}

void rigor_plan_estimate_print(FILE *out, const rigor_experiment_t *e) {
  uint32_t nv = e->n_variants, max_blocks = e->schedule.n_blocks;
  uint32_t min_blocks = e->order.precision > 0 ? e->order.min_blocks : max_blocks;
  double *per_run = calloc(nv ? nv : 1, sizeof *per_run);
  double *floor_s = calloc(nv ? nv : 1, sizeof *floor_s);
  double *timeout_s = calloc(nv ? nv : 1, sizeof *timeout_s);
  past_runs_t past = {e, calloc(nv ? nv : 1, sizeof(double)), calloc(nv ? nv : 1, sizeof(unsigned)),
                      0, 0};
  if (!per_run || !floor_s || !timeout_s || !past.sum_s || !past.n) goto done;

  /* From the settings: under iters: auto every window lasts at least min_window, so a run takes
   * at least (warmup + cycles) windows per point; any run ends by its timeout. */
  bool all_auto = true;
  for (uint32_t v = 0; v < nv; v++) {
    const rigor_timing_t t = e->variants[v].timing;
    timeout_s[v] = t.timeout_s;
    floor_s[v] = t.iters_auto ? (double)(t.warmup + t.cycles) *
                                    sweep_points(e->variants[v].settings) * t.min_window_s
                              : 0;
    all_auto = all_auto && t.iters_auto;
  }
  const json_t *deadline = json_object_get(e->variants[0].settings, "deadline");
  double deadline_s = json_is_number(deadline) ? json_number_value(deadline) : 0;

  bool truncated = false;
  char err[512];
  rigor_results_callbacks_t cb = {.record = take_run, .arg = &past};
  if (access(e->output, R_OK) == 0) rigor_results_read(e->output, &cb, &truncated, err, sizeof err);

  if (past.all_n) {
    /* A variant with no past run of its own takes the mean of all. */
    for (uint32_t v = 0; v < nv; v++)
      per_run[v] = past.n[v] ? past.sum_s[v] / past.n[v] : past.all_sum_s / past.all_n;
    double lo = schedule_sum(e, min_blocks, per_run), hi = schedule_sum(e, max_blocks, per_run);
    if (deadline_s > 0 && lo > deadline_s) lo = deadline_s;
    if (deadline_s > 0 && hi > deadline_s) hi = deadline_s;
    print_range(out, "  expected time: about ", lo, hi);
    fprintf(out, " (from %u past ok run%s in %s)\n", past.all_n, past.all_n == 1 ? "" : "s",
            e->output);
  } else {
    double lo = schedule_sum(e, min_blocks, floor_s), hi = schedule_sum(e, max_blocks, timeout_s);
    if (deadline_s > 0 && hi > deadline_s) hi = deadline_s;
    if (deadline_s > 0 && lo > deadline_s) lo = deadline_s;
    char least[32], most[32];
    rigor_format_clock(least, sizeof least, lo);
    rigor_format_clock(most, sizeof most, hi);
    /* Without iters: auto the settings say nothing of how long a window lasts. */
    if (all_auto && lo >= 1)
      fprintf(out, "  expected time: at least %s (windows of timing.min_window), at most %s", least,
              most);
    else
      fprintf(out, "  expected time: at most %s", most);
    fprintf(out, " (%s); no past runs in %s to say more\n",
            deadline_s > 0 && hi == deadline_s ? "the deadline" : "timing.timeout per run",
            e->output);
  }
done:
  free(per_run);
  free(floor_s);
  free(timeout_s);
  free(past.sum_s);
  free(past.n);
}
