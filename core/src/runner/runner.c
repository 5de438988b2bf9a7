#include "runner.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounds.h"
#include "checks.h"
#include "child.h"
#include "clock.h"
#include "describe.h"
#include "envpad.h"
#include "identity.h"
#include "measure.h"
#include "noise.h"
#include "orphans.h"
#include "rebuilt.h"
#include "runner_internal.h"
#include "resume.h"
#include "signals.h"
#include "slurm.h"
#include "spawn.h"
#include "supervise.h"
#include "timing.h"
#include "wire.h"
#include "writer.h"

/* Runs in one block: one per variant, or one per cell when every run hosts all the arms. */
static uint32_t per_block(const rigor_job_t *job) {
  return job->n_arms ? job->n_cells : job->n_variants;
}

/* The variants run k hosts: its one variant, or its cell's arms. */
static const uint32_t *run_variants(const rigor_job_t *job, uint32_t k, uint32_t *n) {
  *n = job->n_arms ? job->n_arms : 1;
  return job->n_arms ? job->arms + (size_t)job->cells[k] * job->n_arms : &job->cells[k];
}

static void write_record(runner_t *r, rigor_results_writer_t *w, const json_t *rec) {
  if (r->failed || w->fd < 0) return;
  if (rigor_results_append(w, rec, r->err, r->errlen) < 0) r->failed = RIGOR_EIO;
  bool results = w == &r->out;
  if (results) r->unsynced = true;
  int (*follow)(void *, const rigor_job_t *, const json_t *, char *, size_t) =
      results ? r->opts->on_record : r->opts->on_telemetry;
  void *arg = results ? r->opts->on_record_arg : r->opts->on_telemetry_arg;
  int rc = !r->failed && follow ? follow(arg, r->job, rec, r->err, r->errlen) : 0;
  /* The caller cannot follow the results any more: no further run is worth its time. */
  if (rc) r->failed = rc < 0 ? rc : RIGOR_EIO;
}

/* fsyncs the results file when something was appended since the last time: every run ends with
 * one, and nothing else pays for another (the experiment record rides on the first run's). */
static void sync_out(runner_t *r) {
  if (r->failed || !r->unsynced) return;
  if (rigor_results_sync(&r->out, r->err, r->errlen) < 0) r->failed = RIGOR_EIO;
  r->unsynced = false;
}

void rigor__runner_append(runner_t *r, const json_t *rec) {
  write_record(r, &r->out, rec);
}

void rigor__runner_append_telemetry(runner_t *r, const json_t *line) {
  write_record(r, &r->telemetry_out, line);
}

void rigor__runner_sync(runner_t *r) {
  sync_out(r);
}

static void write_sample(void *arg, json_t *sample) {
  runner_t *r = arg;
  write_record(r, &r->out, sample);
  /* Samples come cycle by cycle, each point of a cycle in turn. */
  json_int_t cycle = json_integer_value(json_object_get(sample, "cycle"));
  if (cycle >= 0 && cycle < UINT32_MAX && (uint32_t)cycle + 1 > r->cycles_done)
    r->cycles_done = (uint32_t)cycle + 1;
}

static void report(const runner_t *r, rigor_progress_t *p) {
  p->job = r->job;
  p->resumed = r->resumed;
  if (r->opts->progress) r->opts->progress(r->opts->progress_arg, p);
}

/* Between a run's lines, a sign of life every heartbeat_s. */
static void heartbeat(void *arg) {
  runner_t *r = arg;
  if (!r->running || r->opts->heartbeat_s <= 0) return;
  uint64_t now = rigor_now_ns();
  if (now < r->next_beat_ns) return;
  uint64_t period = (uint64_t)(r->opts->heartbeat_s * 1e9);
  while (r->next_beat_ns <= now)
    r->next_beat_ns += period ? period : 1;
  rigor_progress_t beat = *r->running;
  beat.event = RIGOR_PROGRESS_RUN_ALIVE;
  beat.elapsed_s = (double)(now - r->job_start_ns) * 1e-9;
  beat.run_s = (double)(now - r->run_start_ns) * 1e-9;
  beat.cycles_done = r->cycles_done;
  report(r, &beat);
}

static json_t *end_member(const rigor_run_outcome_t *o, const char *key) {
  json_t *v = o->end ? json_object_get(o->end, key) : NULL;
  return v && !json_is_null(v) ? json_incref(v) : NULL;
}

static void append_outcome(runner_t *r, const rigor_child_args_t *a, const rigor_run_outcome_t *o,
                           const char *start, const char *end, double elapsed, json_t *noise,
                           long env_pad, json_t *checks) {
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
      .checks = checks,
      .calibration = end_member(o, "calibration"),
      .arms = a->n_arms ? r->job->arms + (size_t)r->job->cells[a->run] * a->n_arms : NULL,
      .n_arms = a->n_arms,
      .rebuilt = r->rebuilt,
      .slurm = o->slurm,
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

void rigor__runner_count(runner_t *r, rigor_run_status_t status) {
  count(r->tally, status);
}

void rigor__runner_report(const runner_t *r, rigor_progress_t *p) {
  report(r, p);
}

/* A spawned run's arms: each arm's variant and settings, and the file a build arm copies. */
static json_t *spec_arms(const rigor_child_args_t *a) {
  json_t *arms = json_array();
  for (uint32_t i = 0; i < a->n_arms; i++) {
    const rigor_child_arm_t *arm = &a->arms[i];
    json_array_append_new(arms,
                          json_pack("{s:I, s:O, s:s?}", "variant", (json_int_t)arm->variant,
                                    "settings", arm->settings, "plugin_file", arm->plugin_file));
  }
  return arms;
}

static json_t *spec_arm_order(const rigor_child_args_t *a) {
  json_t *square = json_array();
  for (uint32_t r = 0; r < a->arm_rows; r++) {
    json_t *row = json_array();
    for (uint32_t slot = 0; slot < a->n_arms; slot++)
      json_array_append_new(row, json_integer(a->arm_square[(size_t)r * a->n_arms + slot]));
    json_array_append_new(square, row);
  }
  return json_pack("{s:o, s:I}", "square", square, "first_row", (json_int_t)a->arm_first_row);
}

/* Starts the run's process: forked, or as `rigor __child` under a launcher or with a padded
 * environment. Returns the pid or -1 with r->err set. */
static pid_t start_run(runner_t *r, const rigor_child_args_t *a, const char *pad, int *fd,
                       rigor_spawn_t *sp) {
  const json_t *settings = a->settings;
  const json_t *launcher = json_object_get(settings, "launcher");
  if (a->n_arms && json_is_array(launcher)) {
    snprintf(r->err, r->errlen, "interleaved arms do not run under a launcher yet");
    return -1;
  }
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
  json_t *arms = a->n_arms ? spec_arms(a) : NULL, *order = a->n_arms ? spec_arm_order(a) : NULL;
  s.arms = arms;
  s.arm_order = order;
  json_t *spec = rigor_wire_spec(&s);
  json_decref(arms), json_decref(order);
  pid_t pid = rigor_spawn_exec(r->opts->self_exe, spec, json_is_array(launcher) ? launcher : NULL,
                               json_object_get(settings, "ranks"), pad, sp, fd, r->err, r->errlen);
  json_decref(spec);
  return pid;
}

/* The sampled checks close at the first run boundary RIGOR_ENV_WINDOW_S after they opened, or
 * after the last run, and their results go into that run's record. */
static json_t *close_window(runner_t *r, bool last) {
  if (!r->window || !(last || rigor_signals_received() ||
                      rigor_env_window_elapsed(r->window) >= RIGOR_ENV_WINDOW_S))
    return NULL;
  json_t *checks = rigor_env_window_close(r->window);
  r->window = NULL;
  return checks;
}

/* The experiment's time left in seconds; 0 without a deadline, negative once it has passed. */
static double time_left(const runner_t *r) {
  if (!r->deadline_ns) return 0;
  uint64_t now = rigor_now_ns();
  return now >= r->deadline_ns ? -1 : (double)(r->deadline_ns - now) * 1e-9;
}

static void run_one(runner_t *r, uint32_t k, uint32_t attempt, uint32_t done, uint64_t t_start,
                    double left_s, bool last) {
  const rigor_job_t *job = r->job;
  uint32_t n = per_block(job), n_arms = 0;
  const uint32_t *variants = run_variants(job, k, &n_arms);
  uint32_t variant = variants[0];
  const json_t *settings = job->variants[variant].settings;
  rigor_child_arm_t arms[RIGOR_MAX_ARMS];
  char label[1024] = "";
  for (uint32_t i = 0; job->n_arms && i < n_arms && i < RIGOR_MAX_ARMS; i++) {
    const rigor_loaded_t *loaded = r->of_variant[variants[i]];
    /* A build arm loads a private copy of its build's .so, so two builds of one file are two
     * instances; a param arm shares the plugin loaded here. */
    bool build = job->variants[variants[i]].plugin_dir != NULL;
    arms[i] = (rigor_child_arm_t){
        .settings = job->variants[variants[i]].settings,
        .timing = *job->variants[variants[i]].timing,
        .plugin = &loaded->desc,
        .plugin_file = build ? loaded->path : NULL,
        .plugin_name = job->plugin,
        .variant = variants[i],
    };
    size_t used = strlen(label);
    snprintf(label + used, sizeof label - used, "%s%s", i ? " | " : "",
             job->variants[variants[i]].label);
  }
  const rigor_timing_t *timing = job->variants[variant].timing;
  const rigor_environment_t *env = job->variants[variant].environment;
  rigor_progress_t p = {.event = RIGOR_PROGRESS_RUN_START,
                        .run = k,
                        .total = job->n_blocks * n,
                        .done = done,
                        .elapsed_s = (double)(rigor_now_ns() - t_start) * 1e-9,
                        .label = job->n_arms ? label : job->variants[variant].label,
                        .cycles = timing->cycles};
  report(r, &p);

  rigor_child_args_t a = {
      .experiment_name = job->name,
      .settings = settings,
      .timing = *timing,
      .environment = *env,
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
      .allow_unsafe = r->opts->search.allow_unsafe,
  };
  if (job->n_arms) {
    a.arms = arms;
    a.n_arms = n_arms;
    a.arm_square = job->arm_square;
    a.arm_rows = job->arm_rows;
    a.arm_first_row = job->arm_offsets[k / n];
  }
  rigor_run_outcome_t o = {.exit_code = -1};
  char start[32], end[32];
  rigor_time_iso(start);
  uint64_t t0 = rigor_now_ns();
  double elapsed = 0;

  rigor_noise_t *noise = NULL;
  json_t *noise_json = NULL;
  bool randomize = env->randomize_env;
  char pad[RIGOR_ENV_PAD_MAX + 1];
  size_t pad_len = 0;
  if (randomize) rigor_env_pad(job->seed, k, pad, sizeof pad, &pad_len);
  long env_pad = randomize ? (long)pad_len : -1;
  char nerr[512];
  if (env->noise && rigor_noise_start(env->noise, &noise, nerr, sizeof nerr) < 0) {
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
      r->running = &p;
      r->cycles_done = 0;
      r->run_start_ns = t0;
      r->job_start_ns = t_start;
      r->next_beat_ns = t0 + (uint64_t)(r->opts->heartbeat_s * 1e9);
      rigor_supervise(fd, pid, timing->timeout_s, left_s, write_sample, heartbeat, r,
                      rigor_signals_received, &o);
      /* A process that never reported its end under Slurm: Slurm may know why. */
      if (o.slurm && !o.end && !rigor_signals_received())
        rigor_slurm_explain(o.slurm, &o.status, o.reason, sizeof o.reason);
      r->running = NULL;
      rigor_signals_guard(0);
      close(fd);
      elapsed = (double)(rigor_now_ns() - t0) * 1e-9;
    }
    rigor_spawn_cleanup(&sp);
    rigor_noise_stop(noise);
    rigor_orphans_reap();
  }
  rigor_time_iso(end);
  append_outcome(r, &a, &o, start, end, elapsed, noise_json, env_pad, close_window(r, last));
  json_decref(o.end);
  json_decref(o.slurm);
  sync_out(r);
  count(r->tally, o.status);
  p.event = RIGOR_PROGRESS_RUN_END;
  p.done = done + 1;
  p.elapsed_s = (double)(rigor_now_ns() - t_start) * 1e-9;
  p.run_s = (double)(rigor_now_ns() - t0) * 1e-9;
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
  json_t *plugin = rigor_plugin_describe(r->of_variant[0]);
  char err[512];
  for (uint32_t i = 0; i < job->n_variants; i++)
    if (rigor_plugin_describe_declared(plugin, &r->of_variant[i]->desc,
                                       json_object_get(job->variants[i].settings, "params"), err,
                                       sizeof err) < 0)
      break; /* the run's process reports the same failure as its reason */
  rigor_experiment_record_t x = {
      .name = job->name,
      .hash = job->hash,
      .source = job->source,
      .config = job->config,
      .variants = variants,
      .schedule = job->schedule,
      .plugin = plugin,
      .builds = builds_json(r),
      .clock_resolution_s = clock.resolution_s,
      .clock_now_cost_s = clock.now_cost_s,
      .identity = rigor_identity_host(),
      .checks = rigor_env_check_pending(),
      .rigor_version = r->opts->rigor_version,
      .rigor_git = r->opts->rigor_git,
  };
  json_t *rec = rigor_record_experiment(&x);
  json_decref(variants);
  return rec;
}

/* Files this invocation created or truncated, by device and inode: later experiments of the
 * same invocation may append to them, whatever the spelling of their path. */
typedef struct claimed {
  struct file_id {
    dev_t dev;
    ino_t ino;
  } * ids;
  size_t n;
} claimed_t;

static bool claimed_has(const claimed_t *c, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return false;
  for (size_t i = 0; i < c->n; i++)
    if (c->ids[i].dev == st.st_dev && c->ids[i].ino == st.st_ino) return true;
  return false;
}

static void claim(claimed_t *c, const rigor_results_writer_t *w) {
  struct file_id *ids = realloc(c->ids, (c->n + 1) * sizeof *ids);
  if (!ids) return;
  c->ids = ids;
  c->ids[c->n++] = (struct file_id){w->dev, w->ino};
}

static off_t size_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_size : 0;
}

static bool wants_raw_telemetry(const rigor_job_t *job) {
  for (uint32_t i = 0; i < job->n_variants; i++)
    if (job->variants[i].environment->telemetry.raw) return true;
  return false;
}

/* A results path must not be the experiment file or a file it extends. */
static int check_not_protected(const runner_t *r, const char *path) {
  for (const char *const *p = r->opts->protected_paths; p && *p; p++)
    if (rigor_same_file(path, *p)) {
      snprintf(r->err, r->errlen,
               "%s: is the experiment file %s itself; results go to a file of their own (-o)", path,
               *p);
      return RIGOR_ECONFIG;
    }
  return 0;
}

/* The raw telemetry sidecar opens before the results file: a run asked for that evidence, so a
 * sidecar that cannot be written stops it before the results file is touched. A sidecar that
 * holds samples while its results file is new is left from other results: refused, not mixed. */
static int open_sidecar(runner_t *r, bool results_exist, bool mine) {
  r->telemetry_out.fd = -1;
  if (!wants_raw_telemetry(r->job)) return 0;
  char side[PATH_MAX + 32];
  snprintf(side, sizeof side, "%s.telemetry.jsonl", r->job->output);
  int rc = check_not_protected(r, side);
  if (!rc) rc = rigor_results_open(&r->telemetry_out, side, r->err, r->errlen);
  if (rc < 0) return rc;
  if (r->telemetry_out.good_size == 0) return 0;
  if (results_exist && (mine || r->opts->resume))
    return rigor_results_cut(&r->telemetry_out, r->telemetry_out.good_size, r->err, r->errlen);
  if (r->opts->force) return rigor_results_truncate(&r->telemetry_out, r->err, r->errlen);
  snprintf(r->err, r->errlen,
           "%s: holds raw telemetry of other results (its results file is gone); remove it or "
           "use --force",
           side);
  rigor_results_close(&r->telemetry_out);
  r->telemetry_out.fd = -1;
  return RIGOR_ECONFIG;
}

/* The resumed file must hold this experiment, or another of this config (a suite that shares
 * one file): a file of someone else's experiments is not appended to. */
static int check_resumable(const runner_t *r, const rigor_resume_t *rs) {
  if (json_object_size(rs->experiments) == 0 || rs->have_experiment) return 0;
  for (size_t i = 0; i < r->n_jobs; i++)
    if (json_object_get(rs->experiments, r->jobs[i].name)) return 0;
  char names[512] = "";
  const char *key;
  json_t *v;
  json_object_foreach(rs->experiments, key, v) {
    size_t used = strlen(names);
    snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", key);
  }
  snprintf(r->err, r->errlen,
           "%s: holds experiment %s, none of this config's; it cannot be resumed with it (use "
           "another -o)",
           r->job->output, names);
  return RIGOR_ECONFIG;
}

/* Whether some run of block `b` already has a record that ends it: an earlier invocation went
 * on past block b - 1, so that decision is not asked again. */
static bool block_started(const rigor_resume_t *rs, uint32_t b, uint32_t n, uint32_t total) {
  for (uint32_t k = b * n; rs->done && k < (b + 1) * n && k < total; k++)
    if (rs->done[k]) return true;
  return false;
}

bool rigor__runner_ask(runner_t *r, rigor_block_event_t event, uint32_t blocks, json_t **held) {
  if (!r->opts->after_block) return true;
  json_t *rec = NULL;
  rigor_block_report_t b = {.job = r->job, .event = event, .blocks = blocks};
  int go_on = r->opts->after_block(r->opts->after_block_arg, &b, &rec, r->err, r->errlen);
  if (go_on < 0) {
    if (!r->failed) r->failed = go_on;
    json_decref(rec);
    return false;
  }
  if (rec && held && go_on == 0) {
    json_decref(*held);
    *held = rec;
  } else if (rec) {
    write_record(r, &r->out, rec);
    json_decref(rec);
    sync_out(r);
  }
  return go_on > 0;
}

static bool ask(runner_t *r, rigor_block_event_t event, uint32_t blocks) {
  return rigor__runner_ask(r, event, blocks, NULL);
}

/* Opens the results file under its lock and readies it: resumed (its cut tail repaired),
 * replaced (--force), appended to (this invocation's own), or new. */
static int open_outputs(runner_t *r, claimed_t *claimed, rigor_resume_t *rs) {
  const rigor_job_t *job = r->job;
  int rc = rigor_results_check_path(job->output, r->err, r->errlen);
  if (!rc) rc = check_not_protected(r, job->output);
  if (rc < 0) return rc;
  bool mine = claimed_has(claimed, job->output);
  bool exists = size_of(job->output) > 0;
  if (exists && !mine && !r->opts->resume && !r->opts->force) {
    snprintf(r->err, r->errlen,
             "%s already exists; rigor never overwrites results: use --resume to finish it, "
             "--force to replace it, or -o for another file",
             job->output);
    return RIGOR_ECONFIG;
  }
  if ((rc = open_sidecar(r, exists, mine)) < 0) return rc;
  rc = rigor_results_open(&r->out, job->output, r->err, r->errlen);
  uint32_t total = job->n_blocks * per_block(job);
  if (!rc && r->out.good_size > 0 && !mine && r->opts->resume) {
    rc = rigor_resume_scan(job->output, job->name, job->hash, job->config, total,
                           rigor_signals_received, rs, r->err, r->errlen);
    if (rc < 0 && rc != RIGOR_ECANCELED) rc = RIGOR_ECONFIG;
    if (!rc) rc = check_resumable(r, rs);
    if (!rc) rc = rigor_results_cut(&r->out, rs->keep_bytes, r->err, r->errlen);
  } else if (!rc && r->out.good_size > 0 && !mine) {
    rc = rigor_results_truncate(&r->out, r->err, r->errlen);
  } else if (!rc) {
    rc = rigor_results_cut(&r->out, r->out.good_size, r->err, r->errlen);
  }
  if (rc < 0) {
    if (r->out.fd >= 0) rigor_results_close(&r->out);
    if (r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
    r->telemetry_out.fd = -1;
    return rc == RIGOR_ECONFIG || rc == RIGOR_ECANCELED ? rc : RIGOR_EIO;
  }
  if (!mine) claim(claimed, &r->out);
  return 0;
}

/* A resumed file goes on with the plugins it began with, or knowingly with rebuilt ones. */
static int check_rebuilt(runner_t *r, const rigor_resume_t *rs) {
  json_t *plugin = rigor_plugin_describe(r->of_variant[0]), *builds = builds_json(r);
  char why[2048];
  int rc = rigor_rebuilt_check(rs->plugin, rs->builds, plugin, builds, r->opts->allow_rebuilt,
                               &r->rebuilt, why, sizeof why);
  json_decref(plugin), json_decref(builds);
  if (rc < 0) {
    snprintf(r->err, r->errlen, "%s: cannot resume experiment '%s': %s", r->job->output,
             r->job->name, why);
    rigor_results_close(&r->out);
    if (r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
    r->telemetry_out.fd = -1;
  }
  return rc;
}

/* Whether this invocation runs run k: every run, or a campaign step's own. */
static bool wanted(const runner_t *r, uint32_t k) {
  if (!r->opts->only_runs) return true;
  for (size_t i = 0; i < r->opts->n_only_runs; i++)
    if (r->opts->only_runs[i] == k) return true;
  return false;
}

/* Runs an experiment whose plugin is loaded; the caller unloads it on every path. */
static int run_loaded(runner_t *r, claimed_t *claimed) {
  const rigor_job_t *job = r->job;
  uint32_t total = job->n_blocks * per_block(job);
  rigor_resume_t rs = {0};
  int rc = open_outputs(r, claimed, &rs);
  if (rc == 0 && rs.have_experiment) rc = check_rebuilt(r, &rs);
  if (rc < 0) {
    rigor_resume_free(&rs);
    return rc;
  }
  if (!rs.have_experiment) {
    json_t *rec = experiment_record(r);
    write_record(r, &r->out, rec);
    json_decref(rec);
  }
  r->resumed = 0;
  for (uint32_t k = 0; rs.done && k < total; k++)
    r->resumed += rs.done[k] != 0;
  if (r->opts->campaign) {
    rc = rigor__campaign_run(r, &rs);
    rigor_resume_free(&rs);
    sync_out(r);
    rigor_results_close(&r->out);
    if (r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
    return rc ? rc : r->failed;
  }
  uint32_t last = total;
  for (uint32_t k = 0; k < total; k++)
    if (!(rs.done && rs.done[k]) && wanted(r, k)) last = k;
  if (last < total) r->window = rigor_env_window_open();
  uint64_t t_start = rigor_now_ns();
  double deadline_s = r->opts->deadline_left_s > 0 ? r->opts->deadline_left_s : job->deadline_s;
  r->deadline_ns = deadline_s > 0 ? t_start + (uint64_t)(deadline_s * 1e9) : 0;
  uint32_t done = 0, n = per_block(job), k = 0;
  bool deadline = false;
  /* An experiment a stop record ended has nothing left to run. */
  for (; k < total && !rs.stopped && !rigor_signals_received() && !r->failed; k++) {
    if (!(rs.done && rs.done[k]) && wanted(r, k)) {
      double left = time_left(r);
      if ((deadline = left < 0)) break;
      run_one(r, k, rs.attempt ? rs.attempt[k] + 1 : 1, done, t_start, left, k == last);
      done++;
    }
    uint32_t blocks = k / n + 1;
    if (k % n == n - 1 && !r->failed && !r->opts->only_runs &&
        !block_started(&rs, blocks, n, total) && !rigor_signals_received() &&
        !ask(r, blocks == job->n_blocks ? RIGOR_BLOCK_LAST : RIGOR_BLOCK_DONE, blocks))
      break;
  }
  json_decref(rigor_env_window_close(r->window)); /* the runs stopped before it closed */
  r->window = NULL;
  /* Run k did not start: the blocks before its own are complete. */
  if (deadline) ask(r, RIGOR_BLOCK_DEADLINE, k / n);
  rigor_resume_free(&rs);
  sync_out(r);
  rigor_results_close(&r->out);
  if (r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
  if (r->failed) return r->failed;
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

/* The command gate, for the whole invocation before its first run: a suite whose third
 * experiment runs a command is refused before the first one starts. */
static int check_commands(const rigor_job_t *jobs, size_t n_jobs, const rigor_run_opts_t *opts,
                          char *err, size_t errlen) {
  if (opts->allow_commands) return 0;
  size_t used = 0, n = 0;
  for (size_t i = 0; i < n_jobs; i++) {
    if (!jobs[i].runs_commands) continue;
    if (used < errlen)
      used += (size_t)snprintf(err + used, errlen - used, "%s'%s'", n ? ", " : "experiment ",
                               jobs[i].name);
    n++;
  }
  if (n == 0) return 0;
  if (used < errlen)
    snprintf(err + used, errlen - used,
             " would execute external commands (see `rigor plan`); nothing was run: rerun with "
             "--allow-commands to permit them");
  return RIGOR_ECONFIG;
}

int rigor_runner_execute(const rigor_job_t *jobs, size_t n_jobs, const rigor_run_opts_t *opts,
                         rigor_tally_t *tally, char *err, size_t errlen) {
  memset(tally, 0, sizeof *tally);
  if (errlen) err[0] = '\0';
  int gate = check_commands(jobs, n_jobs, opts, err, errlen);
  if (gate < 0) return gate;
  rigor_signals_install();
  rigor_orphans_adopt();
  runner_t r = {
      .opts = opts, .jobs = jobs, .n_jobs = n_jobs, .err = err, .errlen = errlen, .tally = tally};
  claimed_t claimed = {0};
  int rc = 0;
  for (size_t i = 0; i < n_jobs && !rigor_signals_received() && rc == 0; i++) {
    r.job = &jobs[i];
    r.failed = 0;
    rc = load_plugins(&r);
    if (rc == 0) rc = run_loaded(&r, &claimed);
    unload_plugins(&r);
    json_decref(r.rebuilt);
    r.rebuilt = NULL;
  }
  free(claimed.ids);
  rigor_signals_restore();
  tally->signal = rigor_signals_received();
  return rc;
}
