#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "utf8.h"
#include "stats.h"

void rigor_clock_probe(rigor_clock_info_t *info) {
  struct timespec res;
  clock_getres(CLOCK_MONOTONIC, &res);
  info->resolution_s = (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
  enum { CALLS = 4096 };
  volatile uint64_t sink = 0;
  uint64_t t0 = rigor_now_ns();
  for (int i = 0; i < CALLS; i++)
    sink += rigor_now_ns();
  uint64_t t1 = rigor_now_ns();
  (void)sink;
  info->now_cost_s = (double)(t1 - t0) * 1e-9 / CALLS;
}

double rigor_aggregate_pick(rigor_aggregate_t how, double rank0, double avg, double min,
                            double max) {
  switch (how) {
  case RIGOR_AGGREGATE_RANK0:
    return rank0;
  case RIGOR_AGGREGATE_MIN:
    return min;
  case RIGOR_AGGREGATE_MAX:
    return max;
  case RIGOR_AGGREGATE_AVG:
  default:
    return avg;
  }
}

/* A plugin callback failed: make sure an error message exists, then return the code. */
static int plugin_failed(rigor_measure_t *m, const char *what, int rc) {
  if (m->ctx->error_code == 0)
    m->ctx->host.error(m->ctx, rc, "%s returned %d (%s)", what, rc,
                       rc == RIGOR_EUNAVAILABLE ? "unavailable" : "error");
  return rc;
}

/* The points the warmup sweep runs: the sweep's own, or the schedule timing.warmup_sizes asks the
 * plugin to name, since only the plugin knows which of its params is a size. */
static int warm_schedule(rigor_measure_t *m, rigor_points_t *warm) {
  const rigor_plugin_t *p = m->plugin;
  *warm = (rigor_points_t){m->n_points, m->points};
  if (m->timing->warmup_sizes == RIGOR_WARMUP_POINTS) return 0;
  const char *sizes = rigor_warmup_sizes_names[m->timing->warmup_sizes];
  if (!p->warm_points)
    return m->ctx->host.error(m->ctx, RIGOR_ENOTSUP,
                              "timing.warmup_sizes: %s needs the plugin to name its warm sizes, "
                              "and plugin '%s' has no warm_points hook",
                              sizes, p->name);
  const rigor_points_t sweep = {m->n_points, m->points};
  rigor_points_t named = {0, NULL};
  int rc = p->warm_points(m->ctx, m->state, m->timing->warmup_sizes, &sweep, &named);
  if (rc < 0) return plugin_failed(m, "warm_points", rc);
  if (named.count > 0 && !named.points)
    return m->ctx->host.error(m->ctx, RIGOR_EPLUGIN,
                              "warm_points named %u %s points but gave no array", named.count,
                              sizes);
  *warm = named;
  return 0;
}

static int warmup(rigor_measure_t *m) {
  const rigor_plugin_t *p = m->plugin;
  if (m->timing->warmup == 0) return 0;
  rigor_points_t warm;
  int rc = warm_schedule(m, &warm);
  if (rc < 0) return rc;
  for (uint32_t pt = 0; pt < warm.count; pt++) {
    for (uint32_t w = 0; w < m->timing->warmup; w++) {
      rc = p->run(m->ctx, m->state, warm.points[pt], 1);
      if (rc < 0) return plugin_failed(m, "run (warmup)", rc);
    }
    if (p->complete) {
      rc = p->complete(m->ctx, m->state, warm.points[pt]);
      if (rc < 0) return plugin_failed(m, "complete (warmup)", rc);
    }
  }
  return 0;
}

typedef struct window {
  double wall_s;    /* per operation */
  double cputime_s; /* per operation */
  double elapsed_s; /* the whole window */
  double *iter_s;   /* per iteration, per operation; NULL when not recorded */
  const char *iter_source;
} window_t;

/* The measured window: iters × agg operations, completion included. Calibration windows pass
 * per_iteration false: they record nothing per iteration and leave the plugin's marks alone. */
static int measure_window(rigor_measure_t *m, uint32_t pt, uint64_t iters, bool per_iteration,
                          window_t *w) {
  const rigor_plugin_t *p = m->plugin;
  const rigor_timing_t *t = m->timing;
  const void *point = m->points[pt];
  rigor_ctx_t *ctx = m->ctx;
  const bool excluded = t->blocking == RIGOR_BLOCKING_EACH_EXCLUDED;
  const bool wait_each = t->blocking != RIGOR_BLOCKING_BATCH;
  const bool use_marks = per_iteration && p->mark && p->mark_read;
  const bool host_iters = per_iteration && !use_marks;
  uint64_t coll_ns = 0;
  int rc;

  uint64_t t0 = rigor_now_ns();
  if (t->blocking == RIGOR_BLOCKING_BATCH && !per_iteration) {
    /* The common case, kept free of per-iteration branches: the harness costs one call. */
    int (*run)(rigor_ctx_t *, void *, const void *, uint64_t) = p->run;
    void *state = m->state;
    const uint64_t agg = t->agg;
    for (uint64_t i = 0; i < iters; i++)
      if ((rc = run(ctx, state, point, agg)) < 0) return plugin_failed(m, "run", rc);
  }
  for (uint64_t i = 0; i < iters && (t->blocking != RIGOR_BLOCKING_BATCH || per_iteration); i++) {
    uint64_t ti = excluded || host_iters ? rigor_now_ns() : 0;
    if (use_marks && (rc = p->mark(ctx, m->state, (uint32_t)i, RIGOR_MARK_BEGIN)) < 0)
      return plugin_failed(m, "mark", rc);
    if ((rc = p->run(ctx, m->state, point, t->agg)) < 0) return plugin_failed(m, "run", rc);
    if (wait_each && p->complete && (rc = p->complete(ctx, m->state, point)) < 0)
      return plugin_failed(m, "complete", rc);
    if (excluded) {
      if (use_marks && (rc = p->mark(ctx, m->state, (uint32_t)i, RIGOR_MARK_END)) < 0)
        return plugin_failed(m, "mark", rc);
      uint64_t te = rigor_now_ns();
      coll_ns += te - ti;
      if (host_iters) w->iter_s[i] = (double)(te - ti);
      if ((rc = ctx->host.barrier(ctx)) < 0) return plugin_failed(m, "barrier", rc);
    } else {
      if (t->blocking == RIGOR_BLOCKING_EACH_BARRIER && (rc = ctx->host.barrier(ctx)) < 0)
        return plugin_failed(m, "barrier", rc);
      if (host_iters) w->iter_s[i] = (double)(rigor_now_ns() - ti);
    }
  }
  if (use_marks && !excluded &&
      (rc = p->mark(ctx, m->state, (uint32_t)iters, RIGOR_MARK_BEGIN)) < 0)
    return plugin_failed(m, "mark", rc);
  uint64_t t_cpu = rigor_now_ns();
  if (p->complete && (rc = p->complete(ctx, m->state, point)) < 0)
    return plugin_failed(m, "complete", rc);
  uint64_t t1 = rigor_now_ns();

  double ops = (double)iters * (double)t->agg;
  double window_ns = excluded ? (double)coll_ns : (double)(t1 - t0);
  w->elapsed_s = window_ns * 1e-9;
  w->wall_s = window_ns * 1e-9 / ops;
  w->cputime_s = (excluded ? (double)coll_ns : (double)(t_cpu - t0)) * 1e-9 / ops;
  if (host_iters) {
    for (uint64_t i = 0; i < iters; i++)
      w->iter_s[i] *= 1e-9 / (double)t->agg;
    w->iter_source = "host";
  } else if (use_marks) {
    if ((rc = p->mark_read(ctx, m->state, w->iter_s, (uint32_t)iters)) < 0)
      return plugin_failed(m, "mark_read", rc);
    for (uint64_t i = 0; i < iters; i++)
      w->iter_s[i] /= (double)t->agg;
    w->iter_source = "marks";
  }
  return 0;
}

static json_t *json_real_or_null(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* The plugin's bus factor, 1 where it left it unset (NaN) or gave a negative one; 0 stays 0. */
static double bus_factor_of(const rigor_work_t *work) {
  return isfinite(work->bus_factor) && work->bus_factor >= 0 ? work->bus_factor : 1.0;
}

/* The rates of the work done in time_s per operation; NaN where not derivable. */
static void fill_rates(rigor_sample_record_t *x, const rigor_work_t *work, double time_s) {
  bool ok = isfinite(time_s) && time_s > 0;
  double bus = bus_factor_of(work);
  if (ok && work->bytes) {
    x->bytes_per_s = (double)work->bytes / time_s;
    x->busbw_bytes_per_s = (double)work->bytes / time_s * bus;
  }
  if (ok && work->flops > 0) x->flops_per_s = work->flops / time_s;
}

/* The check's outcome; `detail` holds its text while the record is built. */
static void fill_check(rigor_sample_record_t *x, const rigor_check_t *c,
                       char (*detail)[sizeof c->detail]) {
  x->checked = true;
  x->check_checked = c->checked;
  x->check_wrong = c->wrong;
  x->check_max_abs_err = c->max_abs_err;
  x->check_max_rel_err = c->max_rel_err;
  x->check_tolerance = c->tolerance;
  snprintf(*detail, sizeof *detail, "%s", c->detail);
  x->check_detail = (*detail)[0] ? rigor_utf8_sanitize(*detail) : NULL;
}

/* Runs `timing.check` validations after the window; the worst result is kept and the wrong
 * counts are summed across ranks. Returns 1 when the check failed, 0 when it passed, <0 error. */
static int validate_point(rigor_measure_t *m, uint32_t pt, rigor_check_t *out) {
  const rigor_plugin_t *p = m->plugin;
  memset(out, 0, sizeof *out);
  bool failed = false;
  for (uint32_t c = 0; c < m->timing->check; c++) {
    rigor_check_t one;
    memset(&one, 0, sizeof one);
    int rc = p->validate(m->ctx, m->state, m->points[pt], &one);
    if (rc < 0 && rc != RIGOR_EVALIDATE) return plugin_failed(m, "validate", rc);
    if (rc == RIGOR_EVALIDATE && one.wrong == 0)
      one.wrong = 1; /* a failed check always counts as wrong */
    failed = failed || rc == RIGOR_EVALIDATE;
    out->checked = one.checked > out->checked ? one.checked : out->checked;
    if (one.wrong >= out->wrong && (one.wrong > 0 || c == 0)) {
      uint64_t checked = out->checked;
      *out = one;
      out->checked = checked;
    }
  }
  uint64_t wrong = out->wrong;
  m->ctx->host.allreduce(m->ctx, &wrong, 1, RIGOR_DT_UINT64, RIGOR_RED_SUM);
  out->wrong = wrong;
  return failed || wrong > 0 ? 1 : 0;
}

static json_t *metrics_json(rigor_measure_t *m, uint32_t pt) {
  const rigor_plugin_t *p = m->plugin;
  json_t *o = json_object();
  if (!p->metrics_read || p->n_metrics == 0) return o;
  double values[256];
  uint32_t n = p->n_metrics < 256 ? p->n_metrics : 256;
  for (uint32_t i = 0; i < n; i++)
    values[i] = NAN;
  if (p->metrics_read(m->ctx, m->state, m->points[pt], values) < 0) return o;
  for (uint32_t i = 0; i < n; i++)
    json_object_set_new(o, p->metrics[i].name, json_real_or_null(values[i]));
  return o;
}

static json_t *ranks_json(rigor_measure_t *m, double local, double *agg_out) {
  rigor_ctx_t *ctx = m->ctx;
  int n = ctx->comm->size;
  double sum = local, mn = local, mx = local, rank0 = local;
  ctx->host.allreduce(ctx, &sum, 1, RIGOR_DT_DOUBLE, RIGOR_RED_SUM);
  ctx->host.allreduce(ctx, &mn, 1, RIGOR_DT_DOUBLE, RIGOR_RED_MIN);
  ctx->host.allreduce(ctx, &mx, 1, RIGOR_DT_DOUBLE, RIGOR_RED_MAX);
  ctx->host.broadcast(ctx, &rank0, sizeof rank0, 0);
  double avg = sum / n;
  *agg_out = rigor_aggregate_pick(m->timing->aggregate, rank0, avg, mn, mx);
  if (n == 1) return NULL;
  json_t *o = json_object();
  json_object_set_new(o, "n", json_integer(n));
  json_object_set_new(o, "rank0", json_real_or_null(rank0));
  json_object_set_new(o, "avg", json_real_or_null(avg));
  json_object_set_new(o, "min", json_real_or_null(mn));
  json_object_set_new(o, "max", json_real_or_null(mx));
  return o;
}

/* Per-iteration times: the max over ranks of each iteration (the critical rank), as nccl-tests. */
static void fill_iterations(rigor_measure_t *m, const window_t *w, uint64_t n,
                            rigor_sample_record_t *x) {
  m->ctx->host.allreduce(m->ctx, w->iter_s, n, RIGOR_DT_DOUBLE, RIGOR_RED_MAX);
  rigor_summary_t s;
  rigor_stats_summarize(w->iter_s, n, &s);
  x->has_iterations = true;
  x->it_n = n;
  x->it_min = s.min;
  x->it_max = s.max;
  x->it_p50 = s.median;
  x->it_p95 = s.p95;
  x->it_p99 = s.p99;
  x->it_mean = s.mean;
  x->it_cv = s.cv;
  x->it_source = w->iter_source;
  x->raw = w->iter_s;
  x->n_raw = n;
}

double rigor_window_floor(const rigor_clock_info_t *clock) {
  return fmax(RIGOR_TOO_SHORT_TICKS * clock->resolution_s,
              RIGOR_TOO_SHORT_CLOCK_READS * clock->now_cost_s);
}

rigor_sample_status_t rigor_window_status(double elapsed_s, const rigor_clock_info_t *clock,
                                          double time_s) {
  if (isnan(time_s) || time_s < 0) return RIGOR_SAMPLE_INVALID;
  if (!(elapsed_s > 0) || elapsed_s < rigor_window_floor(clock) || !isfinite(time_s))
    return RIGOR_SAMPLE_TOO_SHORT;
  return RIGOR_SAMPLE_OK;
}

int rigor_measure_point(rigor_measure_t *m, uint32_t cycle, uint32_t pt, double *iter_buf) {
  const rigor_plugin_t *p = m->plugin;
  rigor_ctx_t *ctx = m->ctx;
  memset(m->work, 0, sizeof *m->work);
  m->work->bus_factor = NAN; /* unset: a plugin may report 0 */
  int rc = p->prime(ctx, m->state, m->points[pt]);
  if (rc < 0) return plugin_failed(m, "prime", rc);
  if ((rc = ctx->host.barrier(ctx)) < 0) return plugin_failed(m, "barrier", rc);

  const uint64_t iters = m->iters[pt];
  window_t w = {0};
  w.iter_s = m->timing->per_iteration ? iter_buf : NULL;
  if ((rc = measure_window(m, pt, iters, m->timing->per_iteration, &w)) < 0) return rc;
  rigor_work_t work = *m->work; /* what ran, read after the window */

  double local = m->timing->report == RIGOR_WINDOW_CPUTIME ? w.cputime_s : w.wall_s;
  double time_s;
  json_t *ranks = ranks_json(m, local, &time_s);
  double wall = w.wall_s, cpu = w.cputime_s;
  if (ranks) {
    double unused;
    json_decref(ranks_json(m, wall, &unused));
    ctx->host.allreduce(ctx, &wall, 1, RIGOR_DT_DOUBLE, RIGOR_RED_MAX);
    ctx->host.allreduce(ctx, &cpu, 1, RIGOR_DT_DOUBLE, RIGOR_RED_MAX);
  }
  rigor_sample_record_t x = rigor_sample_record_init();
  if (w.iter_s) fill_iterations(m, &w, iters, &x);

  rigor_check_t check;
  int failed = 0;
  bool checked = m->timing->check > 0 && p->validate;
  if (checked && (failed = validate_point(m, pt, &check)) < 0) {
    json_decref(ranks);
    return failed;
  }
  char detail[sizeof check.detail];
  if (checked) fill_check(&x, &check, &detail);

  x.cycle = cycle;
  x.point = pt;
  x.point_label = m->point_labels[pt];
  x.point_params = json_deep_copy(json_array_get(m->point_objs, pt));
  x.status = failed ? RIGOR_SAMPLE_WRONG : rigor_window_status(w.elapsed_s, &m->clock, time_s);
  x.window = rigor_window_names[m->timing->report];
  x.time_s = time_s;
  x.wall_s = wall;
  x.cputime_s = cpu;
  x.iters = iters;
  x.agg = m->timing->agg;
  x.bytes = work.bytes;
  x.flops = work.flops;
  x.bus_factor = bus_factor_of(&work);
  fill_rates(&x, &work, time_s);
  x.metrics = metrics_json(m, pt);
  x.ranks = ranks;
  m->samples++;
  if (failed) m->wrong_samples++;
  if (ctx->comm->rank == 0)
    m->emit(m->emit_arg, &x);
  else
    rigor_sample_record_drop(&x);
  return 0;
}

static int stop_code(rigor_measure_t *m) {
  return m->ctx->deadline_hit ? RIGOR_ETIMEDOUT : RIGOR_ECANCELED;
}

/* iters: auto at one point. From 1, iters doubles until the window reaches the target: the
 * larger of timing.min_window and twice the too_short floor, so no cycle of the run can fall
 * below the floor. A window that reaches the target is measured again and the shorter of the
 * two counts, so one preempted window cannot stop the doubling early. Ranks decide together
 * on their longest window. Every measured step goes into `steps` as [iters, seconds]. */
static int calibrate(rigor_measure_t *m, uint32_t pt, json_t *steps) {
  const rigor_plugin_t *p = m->plugin;
  rigor_ctx_t *ctx = m->ctx;
  const double target = fmax(m->timing->min_window_s, 2 * rigor_window_floor(&m->clock));
  for (uint64_t n = 1;; n *= 2) {
    double shortest = INFINITY;
    for (int rep = 0; rep < 2 && !(shortest < target); rep++) {
      if (ctx->host.should_stop(ctx)) return stop_code(m);
      int rc = p->prime(ctx, m->state, m->points[pt]);
      if (rc < 0) return plugin_failed(m, "prime (calibration)", rc);
      if ((rc = ctx->host.barrier(ctx)) < 0) return plugin_failed(m, "barrier", rc);
      window_t w = {0};
      if ((rc = measure_window(m, pt, n, false, &w)) < 0) return rc;
      double elapsed = w.elapsed_s;
      ctx->host.allreduce(ctx, &elapsed, 1, RIGOR_DT_DOUBLE, RIGOR_RED_MAX);
      shortest = fmin(shortest, elapsed);
    }
    json_array_append_new(steps, json_pack("[I, f]", (json_int_t)n, shortest));
    if (shortest >= target || n >= RIGOR_CALIBRATION_MAX_ITERS) {
      m->iters[pt] = n;
      return 0;
    }
  }
}

static int choose_iters(rigor_measure_t *m) {
  m->iters = calloc(m->n_points ? m->n_points : 1, sizeof *m->iters);
  if (!m->iters) return RIGOR_ENOMEM;
  for (uint32_t pt = 0; pt < m->n_points; pt++)
    m->iters[pt] = m->timing->iters;
  if (!m->timing->iters_auto) return 0;
  m->calibration = json_array();
  for (uint32_t pt = 0; pt < m->n_points; pt++) {
    json_t *steps = json_array();
    int rc = calibrate(m, pt, steps);
    json_array_append_new(m->calibration,
                          json_pack("{s:I, s:I, s:f, s:o}", "point", (json_int_t)pt, "iters",
                                    (json_int_t)m->iters[pt], "min_window_s",
                                    m->timing->min_window_s, "windows", steps));
    if (rc < 0) return rc;
  }
  return 0;
}

uint64_t rigor_measure_most_iters(const rigor_measure_t *m) {
  uint64_t most = 1;
  for (uint32_t pt = 0; pt < m->n_points; pt++)
    most = m->iters[pt] > most ? m->iters[pt] : most;
  return most;
}

int rigor_measure_should_stop(rigor_measure_t *m) {
  return m->ctx->host.should_stop(m->ctx) ? stop_code(m) : 0;
}

static int measure_cycles(rigor_measure_t *m) {
  double *iter_buf = NULL;
  if (m->timing->per_iteration) {
    /* Allocated outside the window. */
    iter_buf = calloc(rigor_measure_most_iters(m), sizeof(double));
    if (!iter_buf) return RIGOR_ENOMEM;
  }
  int rc = 0;
  for (uint32_t c = 0; c < m->timing->cycles && rc == 0; c++)
    for (uint32_t pt = 0; pt < m->n_points && rc == 0; pt++) {
      if (m->ctx->host.should_stop(m->ctx)) {
        rc = stop_code(m);
        break;
      }
      rc = rigor_measure_point(m, c, pt, iter_buf);
    }
  free(iter_buf);
  return rc;
}

int rigor_measure_prepare(rigor_measure_t *m) {
  int rc = warmup(m);
  return rc == 0 ? choose_iters(m) : rc;
}

void rigor_measure_release(rigor_measure_t *m) {
  free(m->iters);
  m->iters = NULL;
}

int rigor_measure_run(rigor_measure_t *m) {
  int rc = rigor_measure_prepare(m);
  if (rc == 0) rc = measure_cycles(m);
  rigor_measure_release(m);
  return rc;
}
