#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pto_vf_addrs.h"
#include "pto_vf_export.h"
#include "pto_vf_golden.h"
#include "pto_vf_params.h"
#include "pto_vf_runner.h"
#include "pto_vf_scan.h"
#include "pto_vf_trace_set.h"
#include "rigor/plugin.h"
#include "rigor/plugin_identity.h"

static const rigor_param_t PARAMS[] = {
    {.name = "trace_dir",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, trace_dir),
     .help = "directory holding core<C>.veccore<V>.{instr_popped_log,instr_log}.dump"},
    {.name = "vec_core",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, vec_core),
     .def = "core0.veccore0",
     .help = "vector units whose VFs count: a comma-separated list, or all"},
    {.name = "include_cube",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(pto_vf_params_t, include_cube),
     .def = "false",
     .help = "also parse core<C>.cubecore<V> dumps (class counts and timeline)"},
    {.name = "preload",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(pto_vf_params_t, preload),
     .def = "true",
     .help = "read the dumps into memory in prime so the window times parsing only"},
    {.name = "runner",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, runner),
     .help = "argv as a JSON array, e.g. [\"./run.sh\",\"--case\",\"a\"]; needs --allow-commands"},
    {.name = "runner_cwd",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, runner_cwd),
     .help = "working directory of the runner"},
    {.name = "runner_timeout",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(pto_vf_params_t, runner_timeout),
     .def = "600",
     .min = "0",
     .help = "seconds before the runner's process group is killed (0: no limit)"},
    {.name = "golden",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, golden),
     .help = "golden result file (key = value lines or a JSON object)"},
    {.name = "require_golden",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(pto_vf_params_t, require_golden),
     .def = "true",
     .help = "a sample without a golden status is invalid"},
    {.name = "status_regex",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, status_regex),
     .help = "regex on runner stdout; group 1 is PASS or FAIL"},
    {.name = "mismatches_regex",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, mismatches_regex),
     .help = "regex on runner stdout; group 1 is the mismatch count"},
    {.name = "max_abs_err_regex",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, max_abs_err_regex),
     .help = "regex on runner stdout; group 1 is max_abs_err"},
    {.name = "max_rel_err_regex",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, max_rel_err_regex),
     .help = "regex on runner stdout; group 1 is max_rel_err"},
    {.name = "build_flags",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, build_flags),
     .help = "contract: the golden record's build_flags must equal this"},
    {.name = "workload",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, workload),
     .help = "contract: the golden record's workload must equal this"},
    {.name = "atol",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(pto_vf_params_t, atol),
     .def = "-1",
     .min = "-1",
     .help = "contract: absolute tolerance the golden check must use (negative: unchecked)"},
    {.name = "rtol",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(pto_vf_params_t, rtol),
     .def = "-1",
     .min = "-1",
     .help = "contract: relative tolerance the golden check must use (negative: unchecked)"},
    {.name = "baseline_cycles",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(pto_vf_params_t, baseline_cycles),
     .def = "0",
     .min = "0",
     .help = "baseline VF total; enables speedup_vs_baseline"},
    {.name = "benchmark_cycles",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(pto_vf_params_t, benchmark_cycles),
     .def = "0",
     .min = "0",
     .help = "benchmark VF total; enables performance_vs_benchmark_percent"},
    {.name = "malformed_threshold",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(pto_vf_params_t, malformed_threshold),
     .def = "0.001",
     .min = "0",
     .max = "1",
     .help = "largest fraction of malformed non-blank lines a valid sample may have"},
    {.name = "device_addrs",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, device_addrs),
     .help = "device_addrs.toml naming buffers for the exports"},
    {.name = "timeline_csv",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, timeline_csv),
     .help = "write the per-instruction timeline as CSV here"},
    {.name = "timeline_json",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, timeline_json),
     .help = "write the per-instruction timeline as JSON here"},
    {.name = "aggregates_csv",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(pto_vf_params_t, aggregates_csv),
     .help = "write per-(core, buffer, class) aggregates as CSV here"},
};

enum {
  M_TOTAL,
  M_FIRST_START,
  M_LAST_END,
  M_VF_COUNT,
  M_EXEC_SUM,
  M_EXEC_MIN,
  M_EXEC_MAX,
  M_REAL_SUM,
  M_REAL_MIN,
  M_REAL_MAX,
  M_INSTR_COUNT,
  M_UNMATCHED_STARTS,
  M_UNMATCHED_ENDS,
  M_CLASS_LOAD,
  M_CLASS_COMPUTE,
  M_CLASS_STORE,
  M_CLASS_SYNC,
  M_CLASS_OTHER,
  M_MALFORMED,
  M_SPEEDUP,
  M_PERCENT,
  M_GOLDEN_PASS,
  M_MISMATCHES,
  M_MAX_ABS,
  M_MAX_REL,
  M_ATOL,
  M_RTOL,
  M_RUNNER_EXIT,
  M_RUNNER_WALL,
  M_DETERMINISTIC,
  M_REPEATS,
  M_MEDIAN,
  M_SPREAD,
  M_VALID,
  M_COUNT
};

static const rigor_metric_t METRICS[M_COUNT] = {
    [M_TOTAL] = {.name = "vf_total_cycles",
                 .unit = "cycles",
                 .better = RIGOR_LOWER_IS_BETTER,
                 .help = "last VF end (instr_log) - first VF start (instr_popped_log)"},
    [M_FIRST_START] = {.name = "first_vf_start",
                       .unit = "cycles",
                       .better = RIGOR_LOWER_IS_BETTER,
                       .help = "cycle of the first VF start"},
    [M_LAST_END] = {.name = "last_vf_end",
                    .unit = "cycles",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "cycle of the last VF end"},
    [M_VF_COUNT] = {.name = "vf_count",
                    .unit = "count",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "VF records in instr_log"},
    [M_EXEC_SUM] = {.name = "vf_execute_sum",
                    .unit = "cycles",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "sum of per-VF execute times"},
    [M_EXEC_MIN] = {.name = "vf_execute_min",
                    .unit = "cycles",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "shortest per-VF execute time"},
    [M_EXEC_MAX] = {.name = "vf_execute_max",
                    .unit = "cycles",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "longest per-VF execute time"},
    [M_REAL_SUM] = {.name = "vf_real_execute_sum",
                    .unit = "cycles",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "sum of vf_real_execute_time"},
    [M_REAL_MIN] = {.name = "vf_real_execute_min",
                    .unit = "cycles",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "shortest vf_real_execute_time"},
    [M_REAL_MAX] = {.name = "vf_real_execute_max",
                    .unit = "cycles",
                    .better = RIGOR_LOWER_IS_BETTER,
                    .help = "longest vf_real_execute_time"},
    [M_INSTR_COUNT] = {.name = "vf_instr_count",
                       .unit = "instructions",
                       .better = RIGOR_LOWER_IS_BETTER,
                       .help = "sum of VF instr_num"},
    [M_UNMATCHED_STARTS] = {.name = "vf_unmatched_starts",
                            .unit = "count",
                            .better = RIGOR_LOWER_IS_BETTER,
                            .help = "VF starts with no end"},
    [M_UNMATCHED_ENDS] = {.name = "vf_unmatched_ends",
                          .unit = "count",
                          .better = RIGOR_LOWER_IS_BETTER,
                          .help = "VF ends with no start"},
    [M_CLASS_LOAD] = {.name = "class_load",
                      .unit = "count",
                      .better = RIGOR_LOWER_IS_BETTER,
                      .help = "instr_log records of class load"},
    [M_CLASS_COMPUTE] = {.name = "class_compute",
                         .unit = "count",
                         .better = RIGOR_LOWER_IS_BETTER,
                         .help = "instr_log records of class compute"},
    [M_CLASS_STORE] = {.name = "class_store",
                       .unit = "count",
                       .better = RIGOR_LOWER_IS_BETTER,
                       .help = "instr_log records of class store"},
    [M_CLASS_SYNC] = {.name = "class_sync",
                      .unit = "count",
                      .better = RIGOR_LOWER_IS_BETTER,
                      .help = "instr_log records of class sync"},
    [M_CLASS_OTHER] = {.name = "class_other",
                       .unit = "count",
                       .better = RIGOR_LOWER_IS_BETTER,
                       .help = "instr_log records of class other"},
    [M_MALFORMED] = {.name = "malformed_lines",
                     .unit = "count",
                     .better = RIGOR_LOWER_IS_BETTER,
                     .help = "lines that did not parse"},
    [M_SPEEDUP] = {.name = "speedup_vs_baseline",
                   .unit = "x",
                   .better = RIGOR_HIGHER_IS_BETTER,
                   .help = "baseline_cycles / vf_total_cycles"},
    [M_PERCENT] = {.name = "performance_vs_benchmark_percent",
                   .unit = "%",
                   .better = RIGOR_HIGHER_IS_BETTER,
                   .help = "benchmark_cycles / vf_total_cycles * 100"},
    [M_GOLDEN_PASS] = {.name = "golden_pass",
                       .unit = "bool",
                       .better = RIGOR_HIGHER_IS_BETTER,
                       .help = "1 PASS, 0 FAIL, NaN unknown"},
    [M_MISMATCHES] = {.name = "golden_mismatches",
                      .unit = "count",
                      .better = RIGOR_LOWER_IS_BETTER,
                      .help = "mismatches the golden check reported"},
    [M_MAX_ABS] = {.name = "golden_max_abs_err",
                   .unit = "abs",
                   .better = RIGOR_LOWER_IS_BETTER,
                   .help = "max absolute error"},
    [M_MAX_REL] = {.name = "golden_max_rel_err",
                   .unit = "rel",
                   .better = RIGOR_LOWER_IS_BETTER,
                   .help = "max relative error"},
    [M_ATOL] = {.name = "golden_atol",
                .unit = "abs",
                .better = RIGOR_LOWER_IS_BETTER,
                .help = "absolute tolerance the check used"},
    [M_RTOL] = {.name = "golden_rtol",
                .unit = "rel",
                .better = RIGOR_LOWER_IS_BETTER,
                .help = "relative tolerance the check used"},
    [M_RUNNER_EXIT] = {.name = "runner_exit_code",
                       .unit = "code",
                       .better = RIGOR_LOWER_IS_BETTER,
                       .help = "runner exit status (-1 signal)"},
    [M_RUNNER_WALL] = {.name = "runner_wall_s",
                       .unit = "s",
                       .better = RIGOR_LOWER_IS_BETTER,
                       .help = "runner wall time"},
    [M_DETERMINISTIC] = {.name = "vf_total_deterministic",
                         .unit = "bool",
                         .better = RIGOR_HIGHER_IS_BETTER,
                         .help = "1 when every repeat of this point gave the same VF total"},
    [M_REPEATS] = {.name = "vf_total_repeats",
                   .unit = "count",
                   .better = RIGOR_HIGHER_IS_BETTER,
                   .help = "samples of this point so far"},
    [M_MEDIAN] = {.name = "vf_total_median",
                  .unit = "cycles",
                  .better = RIGOR_LOWER_IS_BETTER,
                  .help = "median VF total over the repeats"},
    [M_SPREAD] = {.name = "vf_total_spread",
                  .unit = "cycles",
                  .better = RIGOR_LOWER_IS_BETTER,
                  .help = "max - min VF total over the repeats"},
    [M_VALID] = {.name = "sample_valid",
                 .unit = "bool",
                 .better = RIGOR_HIGHER_IS_BETTER,
                 .help = "1 when every validity rule held"},
};

typedef struct history {
  uint64_t *totals;
  size_t n, cap;
} history_t;

typedef struct buffer {
  char *data;
  size_t len;
} buffer_t;

typedef struct state {
  rigor_ctx_t *ctx;
  const rigor_host_t *host;
  const rigor_points_t *points;
  rigor_work_t *work;
  history_t *history; /* one per point */
  /* the point being measured */
  const pto_vf_params_t *p;
  size_t point_index;
  char **argv;
  vf_trace_set_t set;
  buffer_t *dumps; /* 2 per unit when preloaded */
  vf_summary_t sum;
  int scan_rc;
  bool scanned;
  bool recorded;
  vf_golden_t golden;
  bool ran;
  vf_run_result_t run;
  char invalid[256]; /* first validity rule broken before the window */
} state_t;

static int set_invalid(state_t *st, const char *fmt, ...) RIGOR_PRINTF(2, 3);
static int set_invalid(state_t *st, const char *fmt, ...) {
  if (st->invalid[0] == '\0') {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->invalid, sizeof st->invalid, fmt, ap);
    va_end(ap);
  }
  return 0;
}

static bool has_text(const char *s) {
  return s && *s;
}

static vf_golden_patterns_t patterns_of(const pto_vf_params_t *p) {
  return (vf_golden_patterns_t){p->status_regex, p->mismatches_regex, p->max_abs_err_regex,
                                p->max_rel_err_regex};
}

static void release_point(state_t *st) {
  if (st->dumps)
    for (size_t i = 0; i < 2 * st->set.n; i++)
      free(st->dumps[i].data);
  free(st->dumps);
  st->dumps = NULL;
  vf_trace_set_free(&st->set);
  vf_argv_free(st->argv);
  st->argv = NULL;
  if (st->ran) vf_run_result_free(&st->run);
  st->ran = false;
}

static void pto_vf_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  state_t *st = state;
  release_point(st);
  if (st->history)
    for (uint32_t i = 0; i < st->points->count; i++)
      free(st->history[i].totals);
  free(st->history);
  free(st);
}

static int check_point(state_t *st, const pto_vf_params_t *p) {
  char err[256];
  if (!has_text(p->trace_dir))
    return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: trace_dir is required");
  if (has_text(p->runner)) {
    char **argv;
    if (vf_argv_parse(p->runner, &argv, err, sizeof err) != 0)
      return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: %s", err);
    vf_argv_free(argv);
    bool allowed = st->host->size >= offsetof(rigor_host_t, commands_allowed) +
                                         sizeof st->host->commands_allowed &&
                   st->host->commands_allowed && st->host->commands_allowed(st->ctx);
    if (!allowed)
      return st->host->error(st->ctx, RIGOR_ECONFIG,
                             "pto_vf: runner %s is configured but external commands are not "
                             "allowed; rerun with --allow-commands",
                             p->runner);
  }
  vf_golden_patterns_t pats = patterns_of(p);
  if (vf_golden_patterns_check(&pats, err, sizeof err) != 0)
    return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: %s", err);
  if (has_text(p->device_addrs)) {
    vf_addrs_t addrs;
    if (vf_addrs_load(p->device_addrs, &addrs, err, sizeof err) != 0)
      return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: %s", err);
    vf_addrs_free(&addrs);
  }
  return 0;
}

static int pto_vf_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                       const rigor_points_t *points, void **state, rigor_work_t *work) {
  (void)params;
  state_t *st = calloc(1, sizeof *st);
  if (!st) return host->error(ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  st->ctx = ctx;
  st->host = host;
  st->points = points;
  st->work = work;
  st->history = calloc(points->count ? points->count : 1, sizeof *st->history);
  if (!st->history) {
    free(st);
    return host->error(ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  }
  for (uint32_t i = 0; i < points->count; i++) {
    int rc = check_point(st, points->points[i]);
    if (rc) {
      pto_vf_fini(ctx, st);
      return rc;
    }
  }
  *state = st;
  return 0;
}

static int read_file(const char *path, buffer_t *out) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -errno;
  struct stat sb;
  int rc = fstat(fd, &sb) == 0 ? 0 : -errno;
  if (rc == 0) {
    out->data = malloc((size_t)sb.st_size + 1);
    out->len = 0;
    if (!out->data) rc = -ENOMEM;
  }
  while (rc == 0) {
    ssize_t got = read(fd, out->data + out->len, (size_t)sb.st_size - out->len);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) rc = -errno;
    if (got <= 0 || out->len + (size_t)got == (size_t)sb.st_size) {
      out->len += got > 0 ? (size_t)got : 0;
      break;
    }
    out->len += (size_t)got;
  }
  close(fd);
  return rc;
}

static int run_runner(state_t *st) {
  char err[256];
  const pto_vf_params_t *p = st->p;
  int rc = vf_argv_parse(p->runner, &st->argv, err, sizeof err);
  if (rc == 0)
    rc = vf_runner_exec(st->argv, p->runner_cwd, p->trace_dir, p->runner_timeout, &st->run, err,
                        sizeof err);
  if (rc) return st->host->error(st->ctx, RIGOR_EPLUGIN, "pto_vf: %s", err);
  st->ran = true;
  if (st->run.timed_out)
    set_invalid(st, "runner timed out after %.0f s", p->runner_timeout);
  else if (st->run.term_signal)
    set_invalid(st, "runner killed by signal %d", st->run.term_signal);
  else if (st->run.exit_code != 0)
    set_invalid(st, "runner or build failed: exit status %d", st->run.exit_code);
  return 0;
}

static bool tolerance_differs(double recorded, double contract) {
  return isnan(recorded) || fabs(recorded - contract) > 1e-12 * fmax(1.0, fabs(contract));
}

/* The golden gate and the measurement contract. */
static void check_golden(state_t *st) {
  const pto_vf_params_t *p = st->p;
  vf_golden_t *g = &st->golden;
  char err[256];
  if (has_text(p->golden) && vf_golden_load(p->golden, g, err, sizeof err) != 0)
    set_invalid(st, "%s", err);
  vf_golden_patterns_t pats = patterns_of(p);
  if (st->ran && st->run.output &&
      vf_golden_from_output(st->run.output, &pats, g, err, sizeof err) != 0)
    set_invalid(st, "%s", err);
  if (g->status == VF_GOLDEN_FAIL)
    set_invalid(st, "correctness failed: golden status FAIL, mismatches %s%" PRIu64,
                g->has_mismatches ? "" : "unknown ", g->mismatches);
  else if (g->status == VF_GOLDEN_UNKNOWN && g->has_mismatches && g->mismatches > 0)
    set_invalid(st, "correctness failed: %" PRIu64 " mismatches", g->mismatches);
  else if (g->status == VF_GOLDEN_UNKNOWN && p->require_golden)
    set_invalid(st, "no golden result: set golden or status_regex (or require_golden: false)");
  if (has_text(p->build_flags) &&
      (!g->has_build_flags || strcmp(g->build_flags, p->build_flags) != 0))
    set_invalid(st, "build flags differ from the contract: recorded '%s', contract '%s'",
                g->has_build_flags ? g->build_flags : "(none)", p->build_flags);
  if (has_text(p->workload) && (!g->has_workload || strcmp(g->workload, p->workload) != 0))
    set_invalid(st, "workload differs from the contract: recorded '%s', contract '%s'",
                g->has_workload ? g->workload : "(none)", p->workload);
  if (p->atol >= 0 && tolerance_differs(g->atol, p->atol))
    set_invalid(st, "threshold differs from the contract: atol recorded %g, contract %g", g->atol,
                p->atol);
  if (p->rtol >= 0 && tolerance_differs(g->rtol, p->rtol))
    set_invalid(st, "threshold differs from the contract: rtol recorded %g, contract %g", g->rtol,
                p->rtol);
}

static int load_trace(state_t *st) {
  char err[256];
  const pto_vf_params_t *p = st->p;
  int rc = vf_trace_set_find(p->trace_dir, p->vec_core, p->include_cube, &st->set, err, sizeof err);
  if (rc == -ENOENT) return set_invalid(st, "%s", err);
  if (rc) return st->host->error(st->ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  uint64_t bytes = 0;
  if (p->preload) {
    st->dumps = calloc(2 * st->set.n, sizeof *st->dumps);
    if (!st->dumps) return st->host->error(st->ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  }
  for (size_t i = 0; i < st->set.n; i++) {
    const char *paths[2] = {st->set.units[i].starts, st->set.units[i].ends};
    for (int k = 0; k < 2; k++) {
      struct stat sb;
      if (stat(paths[k], &sb) == 0) bytes += (uint64_t)sb.st_size;
      if (p->preload && (rc = read_file(paths[k], &st->dumps[2 * i + k])) != 0)
        return st->host->error(st->ctx, RIGOR_EIO, "pto_vf: %s: %s", paths[k], strerror(-rc));
    }
  }
  st->work->bytes = bytes;
  return 0;
}

static int export_once(state_t *st) {
  const pto_vf_params_t *p = st->p;
  if (st->set.n == 0 ||
      !(has_text(p->timeline_csv) || has_text(p->timeline_json) || has_text(p->aggregates_csv)))
    return 0;
  char err[256];
  vf_addrs_t addrs = {0};
  if (has_text(p->device_addrs) && vf_addrs_load(p->device_addrs, &addrs, err, sizeof err) != 0)
    return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: %s", err);
  vf_export_paths_t paths = {p->timeline_csv, p->timeline_json, p->aggregates_csv};
  int rc =
      vf_export_write(&st->set, has_text(p->device_addrs) ? &addrs : NULL, &paths, err, sizeof err);
  vf_addrs_free(&addrs);
  if (rc) return st->host->error(st->ctx, RIGOR_EIO, "pto_vf: export: %s", err);
  return 0;
}

static size_t point_index(const state_t *st, const void *point) {
  for (uint32_t i = 0; i < st->points->count; i++)
    if (st->points->points[i] == point) return i;
  return 0;
}

static int pto_vf_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx;
  state_t *st = state;
  release_point(st);
  st->p = point;
  st->point_index = point_index(st, point);
  st->invalid[0] = '\0';
  st->scanned = false;
  st->recorded = false;
  vf_golden_init(&st->golden);
  vf_summary_init(&st->sum);
  int rc = 0;
  if (has_text(st->p->runner)) rc = run_runner(st);
  if (rc == 0) rc = load_trace(st);
  if (rc == 0) check_golden(st);
  if (rc == 0) rc = export_once(st);
  return rc;
}

static int scan_unit(state_t *st, size_t i, vf_summary_t *sum) {
  vf_reader_t readers[2];
  int fds[2] = {-1, -1};
  int rc = 0;
  for (int k = 0; k < 2 && rc == 0; k++) {
    if (st->dumps) {
      vf_reader_from_memory(&readers[k], st->dumps[2 * i + k].data, st->dumps[2 * i + k].len);
      continue;
    }
    fds[k] = open(k ? st->set.units[i].ends : st->set.units[i].starts, O_RDONLY);
    rc = fds[k] < 0 ? -errno : vf_reader_from_fd(&readers[k], fds[k]);
  }
  if (rc == 0) rc = vf_scan_core(&readers[0], &readers[1], (uint32_t)(2 * i), sum, NULL, NULL);
  for (int k = 0; k < 2; k++)
    if (fds[k] >= 0) {
      vf_reader_release(&readers[k]);
      close(fds[k]);
    }
  return rc;
}

static int pto_vf_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx, (void)point;
  state_t *st = state;
  for (uint64_t op = 0; op < n; op++) {
    vf_summary_init(&st->sum);
    for (size_t i = 0; i < st->set.n; i++) {
      vf_summary_t unit;
      vf_summary_init(&unit);
      st->scan_rc = scan_unit(st, i, &unit);
      if (st->scan_rc)
        return st->host->error(st->ctx, RIGOR_EIO, "pto_vf: scanning %s: %s", st->set.units[i].unit,
                               strerror(-st->scan_rc));
      vf_summary_merge(&st->sum, &unit);
    }
    st->scanned = true;
  }
  return 0;
}

static const char *file_of(const state_t *st, uint32_t file) {
  size_t unit = file / 2;
  if (unit >= st->set.n) return "?";
  return file % 2 ? st->set.units[unit].ends : st->set.units[unit].starts;
}

/* Empty when the sample is valid, else the first broken rule. */
static void sample_reason(const state_t *st, char *out, size_t cap) {
  const vf_summary_t *s = &st->sum;
  out[0] = '\0';
  if (st->invalid[0]) {
    snprintf(out, cap, "%s", st->invalid);
  } else if (!st->scanned) {
    snprintf(out, cap, "trace was not parsed");
  } else if (s->lines && (double)s->malformed / (double)s->lines > st->p->malformed_threshold) {
    const vf_issue_t *is = &s->issues[0];
    snprintf(out, cap,
             "malformed trace: %" PRIu64 " of %" PRIu64
             " lines exceed malformed_threshold %g; first %s:%" PRIu64 " (%s)",
             s->malformed, s->lines, st->p->malformed_threshold, file_of(st, is->file), is->line,
             vf_line_status_name(is->kind));
  } else if (!s->has_first_start || !s->has_last_end) {
    snprintf(out, cap, "trace has no VF %s record", !s->has_first_start ? "start" : "end");
  } else if (s->last_vf_end < s->first_vf_start) {
    snprintf(out, cap, "last VF end %" PRIu64 " precedes first VF start %" PRIu64, s->last_vf_end,
             s->first_vf_start);
  }
}

static int pto_vf_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  (void)ctx, (void)point;
  state_t *st = state;
  const vf_golden_t *g = &st->golden;
  check->checked = 1;
  check->max_abs_err = isnan(g->max_abs_err) ? 0 : g->max_abs_err;
  check->max_rel_err = isnan(g->max_rel_err) ? 0 : g->max_rel_err;
  check->tolerance = isnan(g->atol) ? 0 : g->atol;
  sample_reason(st, check->detail, sizeof check->detail);
  if (st->sum.unmatched_starts || st->sum.unmatched_ends)
    st->host->log(st->ctx, RIGOR_LOG_WARN,
                  "pto_vf: unmatched VF events: %" PRIu64 " starts, %" PRIu64 " ends",
                  st->sum.unmatched_starts, st->sum.unmatched_ends);
  if (st->sum.malformed)
    st->host->log(st->ctx, RIGOR_LOG_WARN,
                  "pto_vf: %" PRIu64 " malformed lines; first %s:%" PRIu64 " (%s)",
                  st->sum.malformed, file_of(st, st->sum.issues[0].file), st->sum.issues[0].line,
                  vf_line_status_name(st->sum.issues[0].kind));
  if (check->detail[0] == '\0') {
    check->wrong = 0;
    return 0;
  }
  check->wrong = g->has_mismatches && g->mismatches > 0 ? g->mismatches : 1;
  return RIGOR_EVALIDATE;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Repeats of one point: identical totals mean a deterministic timing path. */
static void fill_repeats(state_t *st, double *v, bool valid) {
  history_t *h = &st->history[st->point_index];
  if (valid && !st->recorded) {
    if (h->n == h->cap) {
      size_t cap = h->cap ? 2 * h->cap : 16;
      uint64_t *t = realloc(h->totals, cap * sizeof *t);
      if (t) {
        h->totals = t;
        h->cap = cap;
      }
    }
    if (h->n < h->cap) h->totals[h->n++] = st->sum.last_vf_end - st->sum.first_vf_start;
    st->recorded = true;
  }
  v[M_REPEATS] = (double)h->n;
  if (h->n == 0) {
    v[M_DETERMINISTIC] = v[M_MEDIAN] = v[M_SPREAD] = NAN;
    return;
  }
  uint64_t *sorted = malloc(h->n * sizeof *sorted);
  if (!sorted) {
    v[M_DETERMINISTIC] = v[M_MEDIAN] = v[M_SPREAD] = NAN;
    return;
  }
  memcpy(sorted, h->totals, h->n * sizeof *sorted);
  qsort(sorted, h->n, sizeof *sorted, cmp_u64);
  v[M_SPREAD] = (double)(sorted[h->n - 1] - sorted[0]);
  v[M_DETERMINISTIC] = sorted[h->n - 1] == sorted[0] ? 1.0 : 0.0;
  v[M_MEDIAN] = h->n % 2 ? (double)sorted[h->n / 2]
                         : ((double)sorted[h->n / 2 - 1] + (double)sorted[h->n / 2]) / 2.0;
  free(sorted);
}

static double stat_or_nan(uint64_t n, uint64_t value) {
  return n ? (double)value : NAN;
}

static int pto_vf_metrics_read(rigor_ctx_t *ctx, void *state, const void *point, double *v) {
  (void)ctx, (void)point;
  state_t *st = state;
  const vf_summary_t *s = &st->sum;
  const vf_golden_t *g = &st->golden;
  char reason[256];
  sample_reason(st, reason, sizeof reason);
  bool valid = reason[0] == '\0';
  bool window =
      st->scanned && s->has_first_start && s->has_last_end && s->last_vf_end >= s->first_vf_start;
  double total = window ? (double)(s->last_vf_end - s->first_vf_start) : NAN;
  v[M_TOTAL] = total;
  v[M_FIRST_START] = s->has_first_start ? (double)s->first_vf_start : NAN;
  v[M_LAST_END] = s->has_last_end ? (double)s->last_vf_end : NAN;
  v[M_VF_COUNT] = st->scanned ? (double)s->vf_ends : NAN;
  v[M_EXEC_SUM] = stat_or_nan(s->exec_n, s->exec_sum);
  v[M_EXEC_MIN] = stat_or_nan(s->exec_n, s->exec_min);
  v[M_EXEC_MAX] = stat_or_nan(s->exec_n, s->exec_max);
  v[M_REAL_SUM] = stat_or_nan(s->real_n, s->real_sum);
  v[M_REAL_MIN] = stat_or_nan(s->real_n, s->real_min);
  v[M_REAL_MAX] = stat_or_nan(s->real_n, s->real_max);
  v[M_INSTR_COUNT] = stat_or_nan(s->instr_num_n, s->instr_num_sum);
  v[M_UNMATCHED_STARTS] = (double)s->unmatched_starts;
  v[M_UNMATCHED_ENDS] = (double)s->unmatched_ends;
  for (int c = 0; c < VF_CLASS_COUNT; c++)
    v[M_CLASS_LOAD + c] = (double)s->class_count[c];
  v[M_MALFORMED] = (double)s->malformed;
  bool rated = valid && total > 0;
  v[M_SPEEDUP] = rated && st->p->baseline_cycles > 0 ? st->p->baseline_cycles / total : NAN;
  v[M_PERCENT] =
      rated && st->p->benchmark_cycles > 0 ? st->p->benchmark_cycles / total * 100.0 : NAN;
  v[M_GOLDEN_PASS] = g->status == VF_GOLDEN_UNKNOWN ? NAN : (double)g->status;
  v[M_MISMATCHES] = g->has_mismatches ? (double)g->mismatches : NAN;
  v[M_MAX_ABS] = g->max_abs_err;
  v[M_MAX_REL] = g->max_rel_err;
  v[M_ATOL] = g->atol;
  v[M_RTOL] = g->rtol;
  v[M_RUNNER_EXIT] = st->ran ? (double)st->run.exit_code : NAN;
  v[M_RUNNER_WALL] = st->ran ? st->run.wall_s : NAN;
  fill_repeats(st, v, valid);
  v[M_VALID] = valid ? 1.0 : 0.0;
  return 0;
}

static uint64_t fnv1a(uint64_t h, const char *data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)data[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static int hash_file(const char *path, uint64_t *size, uint64_t *hash) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -errno;
  char buf[65536];
  uint64_t h = 0xcbf29ce484222325ULL, n = 0;
  ssize_t got;
  while ((got = read(fd, buf, sizeof buf)) > 0) {
    h = fnv1a(h, buf, (size_t)got);
    n += (uint64_t)got;
  }
  close(fd);
  *size = n;
  *hash = h;
  return got < 0 ? -EIO : 0;
}

static int pto_vf_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  state_t *st = state;
  const pto_vf_params_t *p = st->p ? st->p : st->points->points[0];
  vf_trace_set_t set = {0};
  char err[256];
  int n = 0;
  if (vf_trace_set_find(p->trace_dir, p->vec_core, p->include_cube, &set, err, sizeof err) == 0) {
    for (size_t i = 0; i < set.n; i++) {
      const char *paths[2] = {set.units[i].starts, set.units[i].ends};
      for (int k = 0; k < 2; k++) {
        uint64_t size, hash;
        const char *base = strrchr(paths[k], '/');
        char key[64];
        snprintf(key, sizeof key, "trace:%s", base ? base + 1 : paths[k]);
        if (hash_file(paths[k], &size, &hash) == 0)
          n = rigor_kv_put(out, cap, n, key, "bytes=%" PRIu64 " fnv1a64=%016" PRIx64, size, hash);
      }
    }
    vf_trace_set_free(&set);
  } else {
    n = rigor_kv_put(out, cap, n, "trace", "%s", err);
  }
  if (has_text(p->runner)) n = rigor_kv_put(out, cap, n, "runner_argv", "%s", p->runner);
  if (st->ran) {
    n = rigor_kv_put(out, cap, n, "runner_exit", "%d", st->run.exit_code);
    n = rigor_kv_put(out, cap, n, "runner_signal", "%d", st->run.term_signal);
    n = rigor_kv_put(out, cap, n, "runner_wall_s", "%.3f", st->run.wall_s);
    size_t len = st->run.output_len;
    n = rigor_kv_put(out, cap, n, "runner_stdout_tail", "%s",
                     st->run.output + (len > 255 ? len - 255 : 0));
    len = strlen(st->run.stderr_tail);
    n = rigor_kv_put(out, cap, n, "runner_stderr_tail", "%s",
                     st->run.stderr_tail + (len > 255 ? len - 255 : 0));
  }
  return n;
}

static const rigor_plugin_t PTO_VF = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "pto_vf",
    .version = "1.0.0",
    .summary = "VF total cycles from CAModel vector-core dumps, gated by a golden check",
    .flags = RIGOR_PLUGIN_RUNS_COMMANDS,
    .params = PARAMS,
    .n_params = sizeof PARAMS / sizeof PARAMS[0],
    .params_size = sizeof(pto_vf_params_t),
    .metrics = METRICS,
    .n_metrics = M_COUNT,
    .init = pto_vf_init,
    .prime = pto_vf_prime,
    .run = pto_vf_run,
    .validate = pto_vf_validate,
    .fini = pto_vf_fini,
    .identity = pto_vf_identity,
    .metrics_read = pto_vf_metrics_read,
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &PTO_VF : NULL;
}
