#include "runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks.h"
#include "child.h"
#include "clock.h"
#include "describe.h"
#include "envpad.h"
#include "identity.h"
#include "measure.h"
#include "noise.h"
#include "resume.h"
#include "signals.h"
#include "spawn.h"
#include "supervise.h"
#include "timing.h"
#include "wire.h"
#include "writer.h"

typedef struct runner {
  const rigor_run_opts_t *opts;
  const rigor_job_t *job;
  /* One plugin per folder the job's variants load from (the search path's, or each build's);
   * a forked run inherits them all, a spawned one is told its folder. */
  rigor_loaded_t **loaded;
  size_t n_loaded;
  rigor_loaded_t **of_variant; /* by variant */
  rigor_results_writer_t out;
  rigor_results_writer_t telemetry_out; /* sidecar for raw telemetry, fd < 0 when unused */
  char *err;
  size_t errlen;
  int io_error;
  rigor_tally_t *tally;
  uint64_t deadline_ns; /* absolute CLOCK_MONOTONIC time the experiment's deadline falls, 0 none */
} runner_t;

static void write_record(runner_t *r, rigor_results_writer_t *w, const json_t *rec) {
  if (r->io_error || w->fd < 0) return;
  if (rigor_results_append(w, rec, r->err, r->errlen) < 0) r->io_error = RIGOR_EIO;
}

static void write_sample(void *arg, json_t *sample) {
  runner_t *r = arg;
  write_record(r, &r->out, sample);
}

static void report(const runner_t *r, rigor_progress_t *p) {
  p->job = r->job;
  if (r->opts->progress) r->opts->progress(r->opts->progress_arg, p);
}

static json_t *end_member(const rigor_run_outcome_t *o, const char *key) {
  json_t *v = o->end ? json_object_get(o->end, key) : NULL;
  return v && !json_is_null(v) ? json_incref(v) : NULL;
}

static void append_outcome(runner_t *r, const rigor_child_args_t *a, const rigor_run_outcome_t *o,
                           const char *start, const char *end, double elapsed, json_t *noise,
                           long env_pad) {
  const rigor_job_t *job = r->job;
  rigor_run_record_t x = {
      .experiment = job->name,
      .label = job->variants[a->variant].label,
      .run = a->run,
      .attempt = a->attempt,
      .block = a->block,
      .position = a->position,
      .variant = a->variant,
      .status = o->status,
      .reason = o->reason,
      .signal = o->signal,
      .exit_code = o->exit_code,
      .start = start,
      .end = end,
      .elapsed_s = elapsed,
      .affinity = end_member(o, "affinity"),
      .noise = noise,
      .telemetry = end_member(o, "telemetry"),
      .plugin_identity = end_member(o, "plugin_identity"),
      .env_pad = env_pad,
      .calibration = end_member(o, "calibration"),
  };
  json_t *rec = rigor_record_run(&x);
  write_record(r, &r->out, rec);
  json_decref(rec);

  json_t *raw = o->end ? json_object_get(o->end, "telemetry_raw") : NULL;
  if (json_is_array(raw) && r->telemetry_out.fd >= 0) {
    size_t i;
    json_t *sample;
    json_array_foreach(raw, i, sample) {
      json_t *line = rigor_record_telemetry(sample, job->name, a->run, a->attempt);
      write_record(r, &r->telemetry_out, line);
      json_decref(line);
    }
  }
}

static void count(rigor_tally_t *t, rigor_run_status_t s) {
  t->ran++;
  switch (s) {
  case RIGOR_RUN_OK:
    t->ok++;
    break;
  case RIGOR_RUN_INVALID:
    t->invalid++;
    break;
  case RIGOR_RUN_SKIPPED:
    t->skipped++;
    break;
  case RIGOR_RUN_INTERRUPTED:
    t->interrupted++;
    break;
  default:
    t->failed++;
  }
}

/* Starts the run's process: forked, or as `rigor __child` under a launcher or with a padded
 * environment. Returns the pid or -1 with r->err set. */
static pid_t start_run(runner_t *r, const rigor_child_args_t *a, const char *pad, int *fd,
                       rigor_spawn_t *sp) {
  const json_t *settings = a->settings;
  const json_t *launcher = json_object_get(settings, "launcher");
  if (!json_is_array(launcher) && !pad) {
    pid_t pid = rigor_spawn_fork(a, fd);
    if (pid < 0) snprintf(r->err, r->errlen, "cannot start the run's process: %s", strerror(errno));
    return pid;
  }
  rigor_run_spec_t s = {
      .experiment = a->experiment_name,
      .plugin = r->of_variant[a->variant]->desc.name,
      .plugin_dir = r->of_variant[a->variant]->dir,
      .settings = settings,
      .run = a->run,
      .attempt = a->attempt,
      .block = a->block,
      .position = a->position,
      .variant = a->variant,
      .commands_allowed = a->commands_allowed,
      .allow_unsafe = r->opts->search.allow_unsafe,
      .deadline_s = a->deadline_s,
  };
  json_t *spec = rigor_wire_spec(&s);
  pid_t pid = rigor_spawn_exec(r->opts->self_exe, spec, json_is_array(launcher) ? launcher : NULL,
                               json_object_get(settings, "ranks"), pad, sp, fd, r->err, r->errlen);
  json_decref(spec);
  return pid;
}

/* The experiment's time left in seconds; 0 without a deadline, negative once it has passed. */
static double time_left(const runner_t *r) {
  if (!r->deadline_ns) return 0;
  uint64_t now = rigor_now_ns();
  return now >= r->deadline_ns ? -1 : (double)(r->deadline_ns - now) * 1e-9;
}

static void run_one(runner_t *r, uint32_t k, uint32_t attempt, uint32_t done, uint64_t t_start,
                    double left_s) {
  const rigor_job_t *job = r->job;
  uint32_t n = job->n_variants;
  uint32_t variant = job->cells[k];
  const json_t *settings = job->variants[variant].settings;
  const json_t *env = json_object_get(settings, "environment");
  rigor_timing_t timing;
  rigor_timing_from_json(json_object_get(settings, "timing"), &timing, r->err, r->errlen);
  rigor_progress_t p = {.event = RIGOR_PROGRESS_RUN_START,
                        .run = k,
                        .total = job->n_blocks * n,
                        .done = done,
                        .elapsed_s = (double)(rigor_now_ns() - t_start) * 1e-9,
                        .label = job->variants[variant].label};
  report(r, &p);

  rigor_child_args_t a = {
      .experiment_name = job->name,
      .settings = settings,
      .plugin = &r->of_variant[variant]->desc,
      .run = k,
      .attempt = attempt,
      .block = k / n,
      .position = k % n,
      .variant = variant,
      .comm = rigor_comm_single(),
      .out_fd = -1,
      .commands_allowed = r->opts->allow_commands,
      .deadline_s = left_s,
  };
  rigor_run_outcome_t o = {.exit_code = -1};
  char start[32], end[32];
  rigor_time_iso(start);
  uint64_t t0 = rigor_now_ns();
  double elapsed = 0;

  rigor_noise_t *noise = NULL;
  json_t *noise_json = NULL;
  const json_t *noise_cfg = json_object_get(env, "noise");
  bool randomize = json_is_true(json_object_get(env, "randomize_env"));
  char pad[RIGOR_ENV_PAD_MAX + 1];
  size_t pad_len = 0;
  if (randomize) rigor_env_pad(job->seed, k, pad, sizeof pad, &pad_len);
  long env_pad = randomize ? (long)pad_len : -1;
  char nerr[512];
  if (noise_cfg && !json_is_null(noise_cfg) &&
      rigor_noise_start(noise_cfg, &noise, nerr, sizeof nerr) < 0) {
    o.status = RIGOR_RUN_FAILED;
    snprintf(o.reason, sizeof o.reason, "environment.noise: %s", nerr);
    env_pad = -1;
  } else {
    if (noise) noise_json = rigor_noise_describe(noise);
    int fd = -1;
    rigor_spawn_t sp = {.hold_fd = -1};
    pid_t pid = start_run(r, &a, randomize ? pad : NULL, &fd, &sp);
    if (pid < 0) {
      o.status = RIGOR_RUN_FAILED;
      snprintf(o.reason, sizeof o.reason, "%s", r->err);
    } else {
      rigor_signals_guard(pid);
      rigor_supervise(fd, pid, timing.timeout_s, left_s, write_sample, r, rigor_signals_received,
                      &o);
      rigor_signals_guard(0);
      close(fd);
      elapsed = (double)(rigor_now_ns() - t0) * 1e-9;
    }
    rigor_spawn_cleanup(&sp);
    rigor_noise_stop(noise);
  }
  rigor_time_iso(end);
  append_outcome(r, &a, &o, start, end, elapsed, noise_json, env_pad);
  json_decref(o.end);
  if (!r->io_error && rigor_results_sync(&r->out, r->err, r->errlen) < 0) r->io_error = RIGOR_EIO;
  count(r->tally, o.status);
  p.event = RIGOR_PROGRESS_RUN_END;
  p.status = o.status;
  p.reason = o.reason[0] ? o.reason : NULL;
  report(r, &p);
}

static json_t *variants_json(const rigor_job_t *job) {
  json_t *variants = json_array();
  for (uint32_t i = 0; i < job->n_variants; i++) {
    json_t *v = json_object();
    json_object_set_new(v, "index", json_integer(i));
    json_object_set_new(v, "label", json_string(job->variants[i].label));
    json_object_set_new(v, "axes", json_deep_copy(job->variants[i].axes));
    json_object_set_new(v, "settings", json_deep_copy(job->variants[i].settings));
    json_array_append_new(variants, v);
  }
  return variants;
}

/* Each build once, in the order the variants first name it: its label, folder and plugin. */
static json_t *builds_json(const runner_t *r) {
  const rigor_job_t *job = r->job;
  json_t *builds = NULL;
  for (uint32_t v = 0; v < job->n_variants; v++) {
    const char *label = job->variants[v].build;
    if (!label) continue;
    bool seen = false;
    for (uint32_t u = 0; u < v && !seen; u++)
      seen = job->variants[u].build && strcmp(job->variants[u].build, label) == 0;
    if (seen) continue;
    json_t *b = rigor_plugin_describe(r->of_variant[v]);
    json_object_set_new(b, "label", json_string(label));
    json_object_set_new(b, "plugin_path", json_string(job->variants[v].plugin_dir));
    if (!builds) builds = json_array();
    json_array_append_new(builds, b);
  }
  return builds;
}

static json_t *experiment_record(const runner_t *r) {
  const rigor_job_t *job = r->job;
  rigor_clock_info_t clock;
  rigor_clock_probe(&clock);
  json_t *variants = variants_json(job);
  rigor_experiment_record_t x = {
      .name = job->name,
      .hash = job->hash,
      .source = job->source,
      .config = job->config,
      .variants = variants,
      .schedule = job->schedule,
      .plugin = rigor_plugin_describe(r->of_variant[0]),
      .builds = builds_json(r),
      .clock_resolution_s = clock.resolution_s,
      .clock_now_cost_s = clock.now_cost_s,
      .identity = rigor_identity_host(),
      .checks = rigor_env_check(),
      .rigor_version = r->opts->rigor_version,
      .rigor_git = r->opts->rigor_git,
  };
  json_t *rec = rigor_record_experiment(&x);
  json_decref(variants);
  return rec;
}

static bool file_nonempty(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0 && (st.st_size > 0 || S_ISLNK(st.st_mode));
}

/* Paths this invocation created or truncated: later experiments may append to them. */
typedef struct claimed {
  char **paths;
  size_t n;
} claimed_t;

static bool claimed_has(const claimed_t *c, const char *path) {
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->paths[i], path) == 0) return true;
  return false;
}

static bool wants_raw_telemetry(const rigor_job_t *job) {
  for (uint32_t i = 0; i < job->n_variants; i++) {
    const json_t *tel =
        json_object_get(json_object_get(job->variants[i].settings, "environment"), "telemetry");
    if (json_is_true(json_object_get(tel, "raw"))) return true;
  }
  return false;
}

/* Opens the results file and, when asked for, the raw telemetry sidecar. The sidecar opens
 * first: a run asked for that evidence, so a sidecar that cannot be written stops it before
 * the results file is touched. */
static int open_outputs(runner_t *r, bool truncate_it) {
  const rigor_job_t *job = r->job;
  r->telemetry_out.fd = -1;
  int rc = 0;
  if (wants_raw_telemetry(job)) {
    char side[4096];
    snprintf(side, sizeof side, "%s.telemetry.jsonl", job->output);
    rc = rigor_results_open(&r->telemetry_out, side, truncate_it, r->err, r->errlen);
  }
  if (rc == 0) rc = rigor_results_open(&r->out, job->output, truncate_it, r->err, r->errlen);
  if (rc < 0 && r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
  if (rc < 0) r->telemetry_out.fd = -1;
  /* A path that is a link or not a file is the caller's choice; a failing disk is not. */
  return rc == RIGOR_ECONFIG ? RIGOR_ECONFIG : rc < 0 ? RIGOR_EIO : 0;
}

/* Whether some run of block `b` already has a record that ends it: an earlier invocation went
 * on past block b - 1, so that decision is not asked again. */
static bool block_started(const rigor_resume_t *rs, uint32_t b, uint32_t n, uint32_t total) {
  for (uint32_t k = b * n; rs->done && k < (b + 1) * n && k < total; k++)
    if (rs->done[k]) return true;
  return false;
}

/* Tells the caller where the experiment stands; appends the record it hands back. */
static bool ask(runner_t *r, rigor_block_event_t event, uint32_t blocks) {
  if (!r->opts->after_block) return true;
  json_t *rec = NULL;
  rigor_block_report_t b = {.job = r->job, .event = event, .blocks = blocks};
  bool go_on = r->opts->after_block(r->opts->after_block_arg, &b, &rec);
  if (rec) {
    write_record(r, &r->out, rec);
    json_decref(rec);
    if (!r->io_error && rigor_results_sync(&r->out, r->err, r->errlen) < 0) r->io_error = RIGOR_EIO;
  }
  return go_on;
}

/* Runs an experiment whose plugin is loaded; the caller unloads it on every path. */
static int run_loaded(runner_t *r, claimed_t *claimed) {
  const rigor_job_t *job = r->job;
  if (job->runs_commands && !r->opts->allow_commands) {
    snprintf(r->err, r->errlen,
             "experiment '%s' would execute external commands (see `rigor plan`); rerun with "
             "--allow-commands to permit them",
             job->name);
    return RIGOR_ECONFIG;
  }
  bool mine = claimed_has(claimed, job->output);
  bool exists = file_nonempty(job->output);
  if (exists && !mine && !r->opts->resume && !r->opts->force) {
    snprintf(r->err, r->errlen,
             "%s already exists; rigor never overwrites results: use --resume to finish it, "
             "--force to replace it, or -o for another file",
             job->output);
    return RIGOR_ECONFIG;
  }
  uint32_t total = job->n_blocks * job->n_variants;
  rigor_resume_t rs = {0};
  if (exists && r->opts->resume &&
      rigor_resume_scan(job->output, job->name, job->hash, job->config, total, &rs, r->err,
                        r->errlen) < 0) {
    rigor_resume_free(&rs);
    return RIGOR_ECONFIG;
  }
  bool truncate_it = exists && r->opts->force && !mine && !r->opts->resume;
  int rc = open_outputs(r, truncate_it);
  if (rc < 0) {
    rigor_resume_free(&rs);
    return rc;
  }
  if (!mine) {
    claimed->paths = realloc(claimed->paths, (claimed->n + 1) * sizeof *claimed->paths);
    claimed->paths[claimed->n++] = strdup(job->output);
  }
  if (!rs.have_experiment) {
    json_t *rec = experiment_record(r);
    write_record(r, &r->out, rec);
    json_decref(rec);
    if (!r->io_error) rigor_results_sync(&r->out, r->err, r->errlen);
  }
  uint64_t t_start = rigor_now_ns();
  r->deadline_ns = job->deadline_s > 0 ? t_start + (uint64_t)(job->deadline_s * 1e9) : 0;
  uint32_t done = 0, n = job->n_variants, k = 0;
  bool deadline = false;
  /* An experiment a stop record ended has nothing left to run. */
  for (; k < total && !rs.stopped && !rigor_signals_received() && !r->io_error; k++) {
    if (!(rs.done && rs.done[k])) {
      double left = time_left(r);
      if ((deadline = left < 0)) break;
      run_one(r, k, rs.attempt ? rs.attempt[k] + 1 : 1, done, t_start, left);
      done++;
    }
    uint32_t blocks = k / n + 1;
    if (k % n == n - 1 && !block_started(&rs, blocks, n, total) && !rigor_signals_received() &&
        !ask(r, blocks == job->n_blocks ? RIGOR_BLOCK_LAST : RIGOR_BLOCK_DONE, blocks))
      break;
  }
  /* Run k did not start: the blocks before its own are complete. */
  if (deadline) ask(r, RIGOR_BLOCK_DEADLINE, k / n);
  rigor_resume_free(&rs);
  rigor_results_sync(&r->out, r->err, r->errlen);
  rigor_results_close(&r->out);
  if (r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
  if (r->io_error) return RIGOR_EIO;
  rigor_progress_t p = {
      .event = RIGOR_PROGRESS_JOB_END, .total = total, .done = done, .deadline = deadline};
  report(r, &p);
  return 0;
}

/* The job's plugins, one per folder: a build's folder alone, or the search path. */
static int load_plugins(runner_t *r) {
  const rigor_job_t *job = r->job;
  r->of_variant = calloc(job->n_variants ? job->n_variants : 1, sizeof *r->of_variant);
  r->loaded = calloc(job->n_variants ? job->n_variants : 1, sizeof *r->loaded);
  if (!r->of_variant || !r->loaded) {
    snprintf(r->err, r->errlen, "out of memory");
    return RIGOR_ENOMEM;
  }
  for (uint32_t v = 0; v < job->n_variants; v++) {
    const char *dir = job->variants[v].plugin_dir;
    for (uint32_t u = 0; u < v && !r->of_variant[v]; u++) {
      const char *other = job->variants[u].plugin_dir;
      if ((!dir && !other) || (dir && other && strcmp(dir, other) == 0))
        r->of_variant[v] = r->of_variant[u];
    }
    if (r->of_variant[v]) continue;
    const char *dirs[] = {dir, NULL};
    rigor_plugin_search_t build = {dirs, r->opts->search.allow_unsafe, true};
    rigor_loaded_t *p = NULL;
    if (rigor_plugin_load(job->plugin, dir ? &build : &r->opts->search, &p, r->err, r->errlen) < 0)
      return RIGOR_ECONFIG;
    r->loaded[r->n_loaded++] = r->of_variant[v] = p;
  }
  return 0;
}

static void unload_plugins(runner_t *r) {
  for (size_t i = 0; i < r->n_loaded; i++)
    rigor_plugin_unload(r->loaded[i]);
  free(r->loaded), free(r->of_variant);
  r->loaded = r->of_variant = NULL;
  r->n_loaded = 0;
}

int rigor_runner_execute(const rigor_job_t *jobs, size_t n_jobs, const rigor_run_opts_t *opts,
                         rigor_tally_t *tally, char *err, size_t errlen) {
  memset(tally, 0, sizeof *tally);
  if (errlen) err[0] = '\0';
  rigor_signals_install();
  runner_t r = {.opts = opts, .err = err, .errlen = errlen, .tally = tally};
  claimed_t claimed = {0};
  int rc = 0;
  for (size_t i = 0; i < n_jobs && !rigor_signals_received() && rc == 0; i++) {
    r.job = &jobs[i];
    r.io_error = 0;
    rc = load_plugins(&r);
    if (rc == 0) rc = run_loaded(&r, &claimed);
    unload_plugins(&r);
  }
  for (size_t i = 0; i < claimed.n; i++)
    free(claimed.paths[i]);
  free(claimed.paths);
  rigor_signals_restore();
  tally->signal = rigor_signals_received();
  return rc;
}
