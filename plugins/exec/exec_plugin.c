#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec_config.h"
#include "exec_match.h"
#include "exec_state.h"
#include "exec_tmp.h"
#include "rigor/plugin.h"
#include "rigor/plugin_identity.h"

#define SPAWN_WARMUP  3
#define SPAWN_SAMPLES 21

static const rigor_metric_t exec_metrics_table[] = {
    {.name = EXEC_METRIC_SPAWN,
     .unit = "s",
     .better = RIGOR_LOWER_IS_BETTER,
     .help = "starting and waiting for an empty program through the same path (median of 21, "
             "measured once per run): the part of a short command's time that is spawning"},
};

static bool commands_allowed(rigor_ctx_t *ctx, const rigor_host_t *host) {
  return host->size >= offsetof(rigor_host_t, commands_allowed) + sizeof host->commands_allowed &&
         host->commands_allowed && host->commands_allowed(ctx);
}

static int point_index(exec_state_t *st, const void *point) {
  if (st->last < st->n_pts && st->points->points[st->last] == point) return (int)st->last;
  for (uint32_t i = 0; i < st->n_pts; i++)
    if (st->points->points[i] == point) return (int)(st->last = i);
  return -1;
}

static bool succeeded(const exec_result_t *r, int64_t expect) {
  return !r->start_errno && !r->timed_out && WIFEXITED(r->wait_status) &&
         WEXITSTATUS(r->wait_status) == expect;
}

/* The last bytes of a stream on one line, for a record's detail. */
static void tail_line(exec_sink_t *s, size_t keep, char *out, size_t cap) {
  const char *text = s->buf;
  size_t len = s->len; /* a NUL byte shows as a space, as other control bytes do */
  while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
    len--;
  size_t from = len > keep ? len - keep : 0;
  size_t n = 0;
  for (size_t i = from; i < len && n + 1 < cap; i++)
    out[n++] = (unsigned char)text[i] < ' ' ? ' ' : text[i];
  out[n] = '\0';
}

static void describe_failure(const exec_result_t *r, double timeout_s, int64_t expect,
                             exec_sink_t *err, char *out, size_t cap) {
  char what[128], tail[112];
  exec_result_describe(r, timeout_s, what, sizeof what);
  tail_line(err, sizeof tail - 1, tail, sizeof tail);
  int used = snprintf(out, cap, "%s", what);
  if (!r->start_errno && !r->timed_out && WIFEXITED(r->wait_status) && used >= 0 &&
      (size_t)used < cap)
    used += snprintf(out + used, cap - (size_t)used, " (expected %lld)", (long long)expect);
  if (tail[0] && used >= 0 && (size_t)used < cap)
    snprintf(out + used, cap - (size_t)used, "; stderr: ...%s", tail);
}

/* Runs an untimed command (setup, prepare, verify, cleanup); 0 when it exited 0. */
static int run_hook(exec_state_t *st, exec_point_t *pt, int h, char *why, size_t cap) {
  exec_result_t r;
  int rc = exec_spawn(&st->sp, &pt->hooks[h], pt->spec.p->timeout, NULL, &st->hook_err, &r);
  if (rc < 0) {
    snprintf(why, cap, "%s: cannot start: %s", exec_hook_names[h], strerror(-rc));
    return RIGOR_EPLUGIN;
  }
  if (succeeded(&r, 0)) return 0;
  char detail[256];
  describe_failure(&r, pt->spec.p->timeout, 0, &st->hook_err, detail, sizeof detail);
  snprintf(why, cap, "%s %s: %s", exec_hook_names[h], pt->hooks[h].argv[0], detail);
  return RIGOR_EVALIDATE;
}

/* Runs hook h once for each distinct command it expands to across the points. */
static int run_hook_once_each(exec_state_t *st, int h) {
  for (uint32_t i = 0; i < st->n_pts; i++) {
    if (!st->pts[i].hooks[h].argv) continue;
    char line[4096], earlier[4096];
    bool seen = false;
    exec_cmd_describe(&st->pts[i].hooks[h], &st->pts[i].spec, line, sizeof line);
    for (uint32_t k = 0; k < i && !seen; k++) {
      if (!st->pts[k].hooks[h].argv) continue;
      exec_cmd_describe(&st->pts[k].hooks[h], &st->pts[k].spec, earlier, sizeof earlier);
      seen = strcmp(line, earlier) == 0;
    }
    char why[512];
    if (!seen && run_hook(st, &st->pts[i], h, why, sizeof why))
      return st->host->error(st->ctx, RIGOR_EPLUGIN, "exec: %s", why);
  }
  return 0;
}

static void exec_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  exec_state_t *st = state;
  if (st->ready) run_hook_once_each(st, EXEC_CLEANUP);
  for (uint32_t i = 0; st->pts && i < st->n_pts; i++)
    exec_point_release(&st->pts[i]);
  free(st->pts);
  if (st->have_expect) regfree(&st->expect);
  exec_metrics_free(st->metrics, st->n_metrics);
  exec_sink_close(&st->out);
  exec_sink_close(&st->err);
  exec_sink_close(&st->hook_err);
  exec_spawner_close(&st->sp);
  exec_tmp_remove(st->tmp);
  free(st);
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The cost of starting a process: an empty program through the same spawn, environment, folder
 * and pipes as the command. */
static void measure_spawn(exec_state_t *st) {
  exec_point_t *pt = &st->pts[0];
  bool shell = pt->spec.p->shell;
  char *shell_argv[] = {EXEC_SHELL, "-c", "", NULL}, *true_argv[] = {"true", NULL};
  exec_cmd_t probe = {
      .argv = shell ? shell_argv : true_argv, .cwd = pt->cmd.cwd, .envp = pt->cmd.envp};
  char err[256];
  st->spawn_s = NAN;
  snprintf(st->spawn_program, sizeof st->spawn_program, "%s", shell ? EXEC_SHELL " -c ''" : "true");
  if (exec_cmd_resolve(&probe, err, sizeof err) != 0) return;
  double t[SPAWN_SAMPLES];
  int n = 0;
  for (int i = 0; i < SPAWN_WARMUP + SPAWN_SAMPLES; i++) {
    exec_result_t r;
    if (exec_spawn(&st->sp, &probe, 10, st->capture_out ? &st->out : NULL, &st->err, &r) < 0 ||
        !succeeded(&r, 0))
      break;
    if (i >= SPAWN_WARMUP) t[n++] = r.wall_s;
  }
  if (!shell) snprintf(st->spawn_program, sizeof st->spawn_program, "%s", probe.path);
  free(probe.path);
  if (n < SPAWN_SAMPLES) return;
  qsort(t, (size_t)n, sizeof *t, compare_doubles);
  st->spawn_s = t[n / 2];
}

static int prepare_points(exec_state_t *st, const rigor_points_t *points) {
  st->n_pts = points->count;
  st->pts = calloc(points->count ? points->count : 1, sizeof *st->pts);
  if (!st->pts) return st->host->error(st->ctx, RIGOR_ENOMEM, "exec: out of memory");
  for (uint32_t i = 0; i < points->count; i++) {
    char err[512];
    const char *param = NULL;
    int rc = exec_point_prepare(points->points[i], st->tmp, &st->pts[i], err, sizeof err, &param);
    if (rc) {
      st->n_pts = i;
      return st->host->error(st->ctx, RIGOR_ECONFIG, "exec: param '%s': %s", param ? param : "?",
                             err);
    }
  }
  return 0;
}

static int open_buffers(exec_state_t *st) {
  uint64_t keep = 0;
  bool stderr_metrics = false;
  for (uint32_t i = 0; i < st->n_pts; i++) {
    const exec_spec_t *s = &st->pts[i].spec;
    st->capture_out = st->capture_out || exec_spec_reads(s, false);
    stderr_metrics = stderr_metrics || exec_spec_reads(s, true);
    keep = s->p->capture > keep ? s->p->capture : keep;
  }
  int rc = exec_spawner_open(&st->sp);
  if (rc < 0) return st->host->error(st->ctx, RIGOR_EPLUGIN, "exec: %s", strerror(-rc));
  if ((st->capture_out && exec_sink_open(&st->out, keep)) ||
      exec_sink_open(&st->err, stderr_metrics ? keep : EXEC_ERR_TAIL) ||
      exec_sink_open(&st->hook_err, EXEC_ERR_TAIL))
    return st->host->error(st->ctx, RIGOR_ENOMEM, "exec: out of memory");
  return 0;
}

static int compile_checks(exec_state_t *st) {
  char err[512];
  const char *re = st->pts[0].spec.p->expect_stdout;
  if (re && *re) {
    if (regcomp(&st->expect, re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB) != 0)
      return st->host->error(st->ctx, RIGOR_ECONFIG, "exec: expect_stdout /%s/ does not compile",
                             re);
    st->have_expect = true;
  }
  if (exec_metrics_compile(&st->pts[0].spec, &st->metrics, err, sizeof err))
    return st->host->error(st->ctx, RIGOR_ECONFIG, "exec: metrics: %s", err);
  st->n_metrics = st->pts[0].spec.n_metrics;
  return 0;
}

/* After setup: every program must be on this machine, else the run is skipped. */
static int resolve_programs(exec_state_t *st) {
  for (uint32_t i = 0; i < st->n_pts; i++) {
    exec_cmd_t *cmds[1 + EXEC_N_HOOKS] = {&st->pts[i].cmd};
    for (int h = 0; h < EXEC_N_HOOKS; h++)
      cmds[1 + h] = &st->pts[i].hooks[h];
    for (int k = 0; k < 1 + EXEC_N_HOOKS; k++) {
      char err[512];
      if (k == 1 + EXEC_SETUP || !cmds[k]->argv) continue;
      int rc = exec_cmd_resolve(cmds[k], err, sizeof err);
      if (rc) return st->host->error(st->ctx, rc, "exec: %s", err);
    }
  }
  return 0;
}

static int exec_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                     const rigor_points_t *points, void **state, rigor_work_t *work) {
  (void)params, (void)work;
  if (!commands_allowed(ctx, host))
    return host->error(ctx, RIGOR_ECONFIG,
                       "exec: running a program needs `rigor run --allow-commands`");
  exec_state_t *st = calloc(1, sizeof *st);
  if (!st) return host->error(ctx, RIGOR_ENOMEM, "exec: out of memory");
  st->ctx = ctx;
  st->host = host;
  st->points = points;
  int rc = exec_tmp_make(st->tmp, sizeof st->tmp);
  if (rc < 0)
    rc = host->error(ctx, RIGOR_EIO, "exec: cannot create a scratch folder in %s: %s",
                     getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
                     strerror(-rc));
  if (!rc) rc = prepare_points(st, points);
  for (uint32_t i = 1; !rc && i < st->n_pts; i++)
    if (!exec_same_checks(st->pts[0].spec.p, st->pts[i].spec.p))
      rc = host->error(ctx, RIGOR_ECONFIG,
                       "exec: metrics and expect_stdout must be the same at every sweep point");
  if (!rc && st->n_pts == 0) rc = host->error(ctx, RIGOR_ECONFIG, "exec: the sweep has no point");
  if (!rc) rc = open_buffers(st);
  for (uint32_t i = 0; !rc && i < st->n_pts; i++)
    if (st->pts[i].hooks[EXEC_SETUP].argv) {
      char err[512];
      if ((rc = exec_cmd_resolve(&st->pts[i].hooks[EXEC_SETUP], err, sizeof err)))
        rc = host->error(ctx, rc, "exec: setup: %s", err);
    }
  if (!rc) rc = run_hook_once_each(st, EXEC_SETUP);
  if (!rc) rc = resolve_programs(st);
  if (!rc) rc = compile_checks(st);
  if (rc) {
    exec_fini(ctx, st);
    return rc;
  }
  measure_spawn(st);
  st->ready = true;
  *state = st;
  return 0;
}

static int exec_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  exec_state_t *st = state;
  int i = point_index(st, point);
  if (i < 0) return st->host->error(ctx, RIGOR_EINVAL, "exec: unknown point");
  st->executions = st->failures = 0;
  st->last_ok = false;
  st->failure[0] = '\0';
  char why[512];
  if (st->pts[i].hooks[EXEC_PREPARE].argv &&
      run_hook(st, &st->pts[i], EXEC_PREPARE, why, sizeof why))
    return st->host->error(ctx, RIGOR_EPLUGIN, "exec: %s", why);
  return 0;
}

/* The measured operation: start the program and wait for it, n times. */
static int exec_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  exec_state_t *st = state;
  int i = point_index(st, point);
  if (i < 0) return st->host->error(ctx, RIGOR_EINVAL, "exec: unknown point");
  exec_point_t *pt = &st->pts[i];
  const exec_params_t *p = pt->spec.p;
  exec_sink_t *out = st->capture_out ? &st->out : NULL;
  for (uint64_t k = 0; k < n; k++) {
    exec_result_t r;
    int rc = exec_spawn(&st->sp, &pt->cmd, p->timeout, out, &st->err, &r);
    if (rc < 0)
      return st->host->error(ctx, RIGOR_EPLUGIN, "exec: cannot start %s: %s", pt->cmd.path,
                             strerror(-rc));
    if (r.timed_out)
      return st->host->error(ctx, RIGOR_ETIMEDOUT,
                             "exec: %s ran past its timeout of %g s; its process group was killed",
                             pt->cmd.argv[0], p->timeout);
    st->executions++;
    st->last_ok = succeeded(&r, p->expect_exit);
    if (st->last_ok) continue;
    if (st->failures++ == 0) {
      int used = snprintf(st->failure, sizeof st->failure,
                          "execution %llu: ", (unsigned long long)st->executions);
      if (used > 0 && (size_t)used < sizeof st->failure)
        describe_failure(&r, p->timeout, p->expect_exit, &st->err, st->failure + used,
                         sizeof st->failure - (size_t)used);
    }
  }
  return 0;
}

static int exec_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  exec_state_t *st = state;
  int i = point_index(st, point);
  if (i < 0) return st->host->error(ctx, RIGOR_EINVAL, "exec: unknown point");
  check->checked = st->executions;
  check->wrong = st->failures;
  char detail[sizeof check->detail];
  snprintf(detail, sizeof detail, "%s", st->failure);
  if (st->executions == 0) {
    check->wrong = 1;
    snprintf(detail, sizeof detail, "no execution ran in the window");
  }
  if (check->wrong == 0 && st->have_expect && !exec_match(&st->expect, st->out.buf, st->out.len)) {
    char tail[96];
    tail_line(&st->out, sizeof tail - 1, tail, sizeof tail);
    check->wrong = 1;
    snprintf(detail, sizeof detail,
             "stdout of the last execution does not match /%.60s/; it ends: %s",
             st->pts[i].spec.p->expect_stdout, tail);
  }
  if (check->wrong == 0 && st->pts[i].hooks[EXEC_VERIFY].argv) {
    char why[512];
    int rc = run_hook(st, &st->pts[i], EXEC_VERIFY, why, sizeof why);
    if (rc == RIGOR_EPLUGIN) return st->host->error(ctx, rc, "exec: %s", why);
    if (rc) {
      check->wrong = 1;
      snprintf(detail, sizeof detail, "%.*s", (int)sizeof detail - 1, why);
    }
  }
  if (check->wrong == 0) return 0;
  snprintf(check->detail, sizeof check->detail, "%s", detail);
  st->host->error(ctx, RIGOR_EVALIDATE, "exec: %s", detail);
  return RIGOR_EVALIDATE;
}

static int exec_metrics_read(rigor_ctx_t *ctx, void *state, const void *point, double *values) {
  (void)ctx, (void)point;
  exec_state_t *st = state;
  values[0] = st->spawn_s;
  for (size_t k = 0; k < st->n_metrics; k++) {
    exec_sink_t *from = st->metrics[k].spec->from_stderr ? &st->err : &st->out;
    values[1 + k] = from->buf ? exec_metric_value(&st->metrics[k], from->buf, from->len) : NAN;
  }
  return 0;
}

static int exec_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  exec_state_t *st = state;
  char line[256];
  exec_cmd_describe(&st->pts[0].cmd, &st->pts[0].spec, line, sizeof line);
  int n = 0;
  n = rigor_kv_put(out, cap, n, "exec.program", "%s", st->pts[0].cmd.path);
  n = rigor_kv_put(out, cap, n, "exec.command", "%s", line);
  n = rigor_kv_put(out, cap, n, "exec.spawn_s", "%.9g", st->spawn_s);
  n = rigor_kv_put(out, cap, n, "exec.spawn_program", "%s", st->spawn_program);
  return n;
}

static const rigor_plugin_t exec_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "exec",
    .version = "1.0.0",
    .summary = "any program as the workload: one execution per operation, checked by its exit "
               "status and output",
    .flags = RIGOR_PLUGIN_RUNS_COMMANDS,
    .params = exec_params_table,
    .n_params = EXEC_N_PARAMS,
    .params_size = sizeof(exec_params_t),
    .metrics = exec_metrics_table,
    .n_metrics = sizeof exec_metrics_table / sizeof exec_metrics_table[0],
    .init = exec_init,
    .prime = exec_prime,
    .run = exec_run,
    .validate = exec_validate,
    .fini = exec_fini,
    .identity = exec_identity,
    .metrics_read = exec_metrics_read,
    .check_params = exec_check_params,
    .commands = exec_commands,
    .declare_metrics = exec_declare_metrics,
    .capabilities = RIGOR_CAP_DECLARED | RIGOR_CAP_VALIDATES | RIGOR_CAP_IDENTITY |
                    RIGOR_CAP_READS_METRICS | RIGOR_CAP_CHECKS_PARAMS | RIGOR_CAP_LISTS_COMMANDS |
                    RIGOR_CAP_DECLARES_METRICS,
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &exec_plugin : NULL;
}
