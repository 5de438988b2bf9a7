#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pto_vf_addrs.h"
#include "pto_vf_export.h"
#include "pto_vf_schema.h"
#include "pto_vf_state.h"
#include "rigor/plugin.h"

/* The point's runner state; its dumps stay loaded for the next prime, which keeps or replaces
 * them. */
static void release_point(pto_vf_state_t *st) {
  vf_argv_free(st->argv);
  st->argv = NULL;
  if (st->ran) vf_run_result_free(&st->run);
  st->ran = false;
}

static void pto_vf_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  pto_vf_state_t *st = state;
  release_point(st);
  pto_vf_dumps_release(st);
  pto_vf_repeats_free(&st->repeats);
  free(st);
}

static int check_point(pto_vf_state_t *st, const pto_vf_params_t *p) {
  char err[256];
  if (!pto_vf_has_text(p->trace_dir))
    return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: trace_dir is required");
  if (pto_vf_has_text(p->runner)) {
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
  vf_golden_patterns_t pats = pto_vf_patterns_of(p);
  if (vf_golden_patterns_check(&pats, err, sizeof err) != 0)
    return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: %s", err);
  if (pto_vf_has_text(p->device_addrs)) {
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
  pto_vf_state_t *st = calloc(1, sizeof *st);
  if (!st) return host->error(ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  st->ctx = ctx;
  st->host = host;
  st->points = points;
  st->work = work;
  if (pto_vf_repeats_init(&st->repeats, points->count ? points->count : 1) != 0) {
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

static int run_runner(pto_vf_state_t *st) {
  char err[256];
  const pto_vf_params_t *p = st->p;
  int rc = vf_argv_parse(p->runner, &st->argv, err, sizeof err);
  if (rc == 0)
    rc = vf_runner_exec(st->argv, p->runner_cwd, p->trace_dir, p->runner_timeout, &st->run, err,
                        sizeof err);
  if (rc) return st->host->error(st->ctx, RIGOR_EPLUGIN, "pto_vf: %s", err);
  st->ran = true;
  if (st->run.timed_out)
    pto_vf_set_invalid(st, "runner timed out after %.0f s", p->runner_timeout);
  else if (st->run.term_signal)
    pto_vf_set_invalid(st, "runner killed by signal %d", st->run.term_signal);
  else if (st->run.exit_code != 0)
    pto_vf_set_invalid(st, "runner or build failed: exit status %d", st->run.exit_code);
  return 0;
}

static int export_once(pto_vf_state_t *st) {
  const pto_vf_params_t *p = st->p;
  if (st->set.n == 0 || !(pto_vf_has_text(p->timeline_csv) || pto_vf_has_text(p->timeline_json) ||
                          pto_vf_has_text(p->aggregates_csv)))
    return 0;
  char err[256];
  vf_addrs_t addrs = {0};
  if (pto_vf_has_text(p->device_addrs) &&
      vf_addrs_load(p->device_addrs, &addrs, err, sizeof err) != 0)
    return st->host->error(st->ctx, RIGOR_ECONFIG, "pto_vf: %s", err);
  vf_export_paths_t paths = {p->timeline_csv, p->timeline_json, p->aggregates_csv};
  int rc = vf_export_write(&st->set, pto_vf_has_text(p->device_addrs) ? &addrs : NULL, &paths, err,
                           sizeof err);
  vf_addrs_free(&addrs);
  if (rc) return st->host->error(st->ctx, RIGOR_EIO, "pto_vf: export: %s", err);
  return 0;
}

static size_t point_index(const pto_vf_state_t *st, const void *point) {
  for (uint32_t i = 0; i < st->points->count; i++)
    if (st->points->points[i] == point) return i;
  return 0;
}

static int pto_vf_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx;
  pto_vf_state_t *st = state;
  release_point(st);
  st->p = point;
  st->point_index = point_index(st, point);
  st->invalid[0] = '\0';
  st->scanned = false;
  st->recorded = false;
  vf_golden_init(&st->golden);
  vf_summary_init(&st->sum);
  int rc = 0;
  if (pto_vf_has_text(st->p->runner)) rc = run_runner(st);
  if (rc == 0) rc = pto_vf_dumps_load(st);
  if (rc == 0) pto_vf_check_golden(st);
  if (rc == 0) rc = export_once(st);
  return rc;
}

static int pto_vf_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx, (void)point;
  pto_vf_state_t *st = state;
  for (uint64_t op = 0; op < n; op++) {
    vf_summary_init(&st->sum);
    for (size_t i = 0; i < st->set.n; i++) {
      vf_summary_t unit;
      vf_summary_init(&unit);
      st->scan_rc = pto_vf_dumps_scan(st, i, &unit);
      if (st->scan_rc)
        return st->host->error(st->ctx, RIGOR_EIO, "pto_vf: scanning %s: %s", st->set.units[i].unit,
                               strerror(-st->scan_rc));
      vf_summary_merge(&st->sum, &unit);
    }
    st->scanned = true;
  }
  return 0;
}

static int pto_vf_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  (void)ctx, (void)point;
  pto_vf_state_t *st = state;
  const vf_golden_t *g = &st->golden;
  check->checked = 1;
  check->max_abs_err = isnan(g->max_abs_err) ? 0 : g->max_abs_err;
  check->max_rel_err = isnan(g->max_rel_err) ? 0 : g->max_rel_err;
  check->tolerance = isnan(g->atol) ? 0 : g->atol;
  pto_vf_sample_reason(st, check->detail, sizeof check->detail);
  if (st->sum.unmatched_starts || st->sum.unmatched_ends)
    st->host->log(st->ctx, RIGOR_LOG_WARN,
                  "pto_vf: unmatched VF events: %" PRIu64 " starts, %" PRIu64 " ends",
                  st->sum.unmatched_starts, st->sum.unmatched_ends);
  if (st->sum.malformed)
    st->host->log(st->ctx, RIGOR_LOG_WARN,
                  "pto_vf: %" PRIu64 " malformed lines; first %s:%" PRIu64 " (%s)",
                  st->sum.malformed, pto_vf_dump_path(st, st->sum.issues[0].file),
                  st->sum.issues[0].line, vf_line_status_name(st->sum.issues[0].kind));
  if (check->detail[0] == '\0') {
    check->wrong = 0;
    return 0;
  }
  check->wrong = g->has_mismatches && g->mismatches > 0 ? g->mismatches : 1;
  return RIGOR_EVALIDATE;
}

/* The runner of each point, once each: what `rigor plan` lists and --allow-commands guards. */
static int pto_vf_commands(const void *params, const rigor_points_t *points, char *out,
                           size_t cap) {
  (void)params;
  int count = 0;
  size_t used = 0;
  out[0] = '\0';
  for (uint32_t i = 0; i < points->count; i++) {
    const char *runner = ((const pto_vf_params_t *)points->points[i])->runner;
    bool seen = !pto_vf_has_text(runner);
    for (uint32_t k = 0; k < i && !seen; k++) {
      const char *earlier = ((const pto_vf_params_t *)points->points[k])->runner;
      seen = pto_vf_has_text(earlier) && strcmp(earlier, runner) == 0;
    }
    if (seen) continue;
    count++;
    if (used < cap) used += (size_t)snprintf(out + used, cap - used, "%s\n", runner);
  }
  return count;
}

/* What init refuses for the params alone, said by `rigor validate` before any run. The runner's
 * permission is the --allow-commands gate's, and the files the params name are read at init. */
static int pto_vf_check_params(const void *params, const rigor_points_t *points, char *err,
                               size_t errlen, const char **param) {
  (void)params;
  for (uint32_t i = 0; i < points->count; i++) {
    const pto_vf_params_t *p = points->points[i];
    if (!pto_vf_has_text(p->trace_dir)) {
      *param = "trace_dir";
      snprintf(err, errlen, "is required: the folder of the dumps to read");
      return RIGOR_ECONFIG;
    }
    if (pto_vf_has_text(p->runner)) {
      char **argv;
      if (vf_argv_parse(p->runner, &argv, err, errlen) != 0) {
        /* The language names the param already. */
        static const char prefix[] = "runner: ";
        if (strncmp(err, prefix, sizeof prefix - 1) == 0)
          memmove(err, err + sizeof prefix - 1, strlen(err + sizeof prefix - 1) + 1);
        *param = "runner";
        return RIGOR_ECONFIG;
      }
      vf_argv_free(argv);
    }
    vf_golden_patterns_t pats = pto_vf_patterns_of(p);
    if (vf_golden_patterns_check(&pats, err, errlen) != 0) return RIGOR_ECONFIG;
  }
  return 0;
}

static const rigor_plugin_t pto_vf_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "pto_vf",
    .version = "1.0.0",
    .summary = "VF total cycles from CAModel vector-core dumps, gated by a golden check",
    .flags = RIGOR_PLUGIN_RUNS_COMMANDS,
    .params = pto_vf_params_table,
    .n_params = PTO_VF_N_PARAMS,
    .params_size = sizeof(pto_vf_params_t),
    .metrics = pto_vf_metrics_table,
    .n_metrics = PTO_VF_M_COUNT,
    .init = pto_vf_init,
    .prime = pto_vf_prime,
    .run = pto_vf_run,
    .validate = pto_vf_validate,
    .fini = pto_vf_fini,
    .identity = pto_vf_identity,
    .metrics_read = pto_vf_metrics_read,
    .commands = pto_vf_commands,
    .check_params = pto_vf_check_params,
    .primary_metric = "vf_total_cycles", /* the figure a round is judged by */
    .capabilities = RIGOR_CAP_DECLARED | RIGOR_CAP_VALIDATES | RIGOR_CAP_IDENTITY |
                    RIGOR_CAP_READS_METRICS | RIGOR_CAP_LISTS_COMMANDS | RIGOR_CAP_CHECKS_PARAMS,
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &pto_vf_plugin : NULL;
}
