#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "cli.h"
#include "env.h"
#include "json_diff.h"
#include "measure.h"
#include "results.h"
#include "results_write.h"
#include "spawn.h"

static volatile sig_atomic_t g_stop;
static volatile pid_t g_child_pgid;

static void on_signal(int sig) {
  g_stop = sig;
  pid_t pg = g_child_pgid;
  if (pg > 0) kill(-pg, SIGTERM);
  rigor_noise_kill_all();
}

static void iso_now(char out[32]) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  char base[24];
  strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(out, 32, "%.19s.%03dZ", base, (int)(ts.tv_nsec / 1000000));
}

typedef struct run_outcome {
  const char *status;
  char reason[2600];
  int signal;
  int exit_code;
  json_t *end; /* the child's end message, or NULL */
} run_outcome_t;

typedef struct runner {
  const rigor_run_opts_t *opts;
  const rigor_experiment_t *e;
  rigor_loaded_t *plugin;
  rigor_results_writer_t out;
  rigor_results_writer_t telemetry_out; /* sidecar for raw telemetry, fd < 0 when unused */
  char err[2048];
  int io_error;
  /* Tallies over this invocation. */
  unsigned ran, ok, failed, invalid, skipped, interrupted;
} runner_t;

static void write_record(runner_t *r, rigor_results_writer_t *w, const json_t *rec) {
  if (r->io_error || w->fd < 0) return;
  if (rigor_results_append(w, rec, r->err, sizeof r->err) < 0) r->io_error = RIGOR_EIO;
}

/* Handles one JSON line from the run's process. */
static void on_line(runner_t *r, char *line, run_outcome_t *o) {
  json_error_t jerr;
  json_t *msg = json_loads(line, 0, &jerr);
  if (!json_is_object(msg)) {
    json_decref(msg);
    return;
  }
  const char *type = json_string_value(json_object_get(msg, "type"));
  if (type && strcmp(type, "sample") == 0) {
    write_record(r, &r->out, msg);
  } else if (type && strcmp(type, "error") == 0) {
    if (!o->reason[0])
      snprintf(o->reason, sizeof o->reason, "%s",
               json_string_value(json_object_get(msg, "message")));
  } else if (type && strcmp(type, "end") == 0) {
    json_decref(o->end);
    o->end = json_incref(msg);
  }
  json_decref(msg);
}

/* Splits complete lines out of buf and handles them; keeps the partial tail. */
static void handle_lines(runner_t *r, char *buf, size_t *len, run_outcome_t *o) {
  size_t start = 0;
  for (size_t i = 0; i < *len; i++)
    if (buf[i] == '\n') {
      buf[i] = '\0';
      on_line(r, buf + start, o);
      start = i + 1;
    }
  memmove(buf, buf + start, *len - start);
  *len -= start;
}

/* Reads the run's lines until EOF, the process's exit, or the timeout (which kills the process
 * group: SIGTERM, then SIGKILL). A grandchild holding the pipe open cannot stall the run. */
static void pump(runner_t *r, int fd, pid_t pid, double timeout_s, run_outcome_t *o, int *wstatus,
                 bool *timed_out) {
  size_t len = 0, cap = 1 << 20;
  char *buf = malloc(cap);
  uint64_t deadline = rigor_now_ns() + (uint64_t)(timeout_s * 1e9);
  bool exited = false;
  *timed_out = false;
  for (;;) {
    if (len + 65536 > cap) {
      cap *= 2;
      buf = realloc(buf, cap);
    }
    struct pollfd pfd = {fd, POLLIN, 0};
    int pr = poll(&pfd, 1, 100);
    if (pr > 0) {
      ssize_t n = read(fd, buf + len, cap - len - 1);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) break;
      len += (size_t)n;
      handle_lines(r, buf, &len, o);
      continue;
    }
    if (pr < 0 && errno != EINTR) break;
    if (waitpid(pid, wstatus, WNOHANG) == pid) {
      exited = true;
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
      ssize_t n;
      while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        handle_lines(r, buf, &len, o);
        if (len + 65536 > cap) {
          cap *= 2;
          buf = realloc(buf, cap);
        }
      }
      break;
    }
    if (rigor_now_ns() >= deadline) {
      *timed_out = true;
      break;
    }
  }
  free(buf);
  if (*timed_out) {
    kill(-pid, SIGTERM);
    for (int i = 0; i < 40 && !exited; i++) {
      if (waitpid(pid, wstatus, WNOHANG) == pid)
        exited = true;
      else
        usleep(50000);
    }
    if (!exited) kill(-pid, SIGKILL);
  }
  if (!exited)
    while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
      ;
  /* Whatever the run left behind in its group goes too. */
  kill(-pid, SIGKILL);
}

static void classify(double timeout_s, int wstatus, bool timed_out, run_outcome_t *o) {
  o->signal = 0;
  o->exit_code = -1;
  const char *end_status = o->end ? json_string_value(json_object_get(o->end, "status")) : NULL;
  const char *end_reason = o->end ? json_string_value(json_object_get(o->end, "reason")) : NULL;
  char plugin_msg[1200];
  snprintf(plugin_msg, sizeof plugin_msg, "%.1100s", end_reason ? end_reason : o->reason);
  if (WIFEXITED(wstatus)) o->exit_code = WEXITSTATUS(wstatus);
  if (timed_out) {
    o->status = "timeout";
    snprintf(o->reason, sizeof o->reason, "exceeded timing.timeout of %g s%s%s", timeout_s,
             plugin_msg[0] ? "; " : "", plugin_msg);
  } else if (g_stop && !end_status) {
    o->status = "interrupted";
    snprintf(o->reason, sizeof o->reason, "rigor received %s", strsignal(g_stop));
  } else if (WIFSIGNALED(wstatus)) {
    o->signal = WTERMSIG(wstatus);
    o->status = g_stop ? "interrupted" : "crashed";
    snprintf(o->reason, sizeof o->reason, "killed by signal %d (%s)%s%s", o->signal,
             strsignal(o->signal), plugin_msg[0] ? "; last error: " : "", plugin_msg);
  } else if (end_status) {
    o->status = end_status;
    snprintf(o->reason, sizeof o->reason, "%s", plugin_msg);
  } else {
    o->status = "failed";
    snprintf(o->reason, sizeof o->reason,
             "the run's process exited with code %d before reporting%s%s", o->exit_code,
             plugin_msg[0] ? "; last error: " : "", plugin_msg);
  }
}

static void restore_signals(void) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGXFSZ, SIG_DFL);
}

/* Fork without exec: the parent's loaded plugin and resolved settings are inherited. */
static pid_t start_forked(const rigor_child_args_t *args, int *read_fd) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    restore_signals();
    close(fds[0]);
    rigor_child_args_t a = *args;
    a.out_fd = fds[1];
    static volatile sig_atomic_t child_stop;
    a.stop = &child_stop;
    _exit(rigor_child_run(&a));
  }
  setpgid(pid, pid);
  close(fds[1]);
  *read_fd = fds[0];
  return pid;
}

static json_t *run_spec(const runner_t *r, const rigor_child_args_t *a) {
  json_t *spec = json_object();
  json_object_set_new(spec, "experiment", json_string(a->experiment_name));
  json_object_set_new(spec, "plugin", json_string(r->plugin->desc.name));
  json_object_set_new(spec, "plugin_dir", json_string(r->plugin->dir));
  json_object_set_new(spec, "settings", json_deep_copy(a->settings));
  json_object_set_new(spec, "run", json_integer(a->run));
  json_object_set_new(spec, "attempt", json_integer(a->attempt));
  json_object_set_new(spec, "block", json_integer(a->block));
  json_object_set_new(spec, "position", json_integer(a->position));
  json_object_set_new(spec, "variant", json_integer(a->variant));
  json_object_set_new(spec, "commands_allowed", json_boolean(a->commands_allowed));
  json_object_set_new(spec, "allow_unsafe", json_boolean(r->opts->search.allow_unsafe));
  return spec;
}

static void append_outcome(runner_t *r, const rigor_child_args_t *a, const run_outcome_t *o,
                           const char *start, const char *end, double elapsed, json_t *noise,
                           long env_pad) {
  const rigor_variant_t *v = &r->e->variants[a->variant];
  json_t *rec = json_object();
  json_object_set_new(rec, "schema", json_string(RIGOR_RESULT_SCHEMA));
  json_object_set_new(rec, "type", json_string("run"));
  json_object_set_new(rec, "experiment", json_string(r->e->name));
  json_object_set_new(rec, "run", json_integer(a->run));
  json_object_set_new(rec, "attempt", json_integer(a->attempt));
  json_object_set_new(rec, "block", json_integer(a->block));
  json_object_set_new(rec, "position", json_integer(a->position));
  json_object_set_new(rec, "variant", json_integer(a->variant));
  json_object_set_new(rec, "label", json_string(v->label));
  json_object_set_new(rec, "status", json_string(o->status));
  json_object_set_new(rec, "reason",
                      o->reason[0] && strcmp(o->status, "ok") != 0 ? json_string(o->reason)
                                                                   : json_null());
  json_object_set_new(rec, "signal", o->signal ? json_integer(o->signal) : json_null());
  json_object_set_new(rec, "exit_code",
                      o->exit_code >= 0 ? json_integer(o->exit_code) : json_null());
  json_object_set_new(rec, "start", json_string(start));
  json_object_set_new(rec, "end", json_string(end));
  json_object_set_new(rec, "elapsed_s", json_real(elapsed));
  json_t *endmsg = o->end;
  json_object_set_new(rec, "affinity",
                      endmsg ? json_incref(json_object_get(endmsg, "affinity")) : json_null());
  json_object_set_new(rec, "noise", noise ? noise : json_null());
  json_t *tele = endmsg ? json_object_get(endmsg, "telemetry") : NULL;
  json_object_set_new(rec, "telemetry", tele ? json_incref(tele) : json_null());
  json_object_set_new(rec, "flags", json_array());
  json_t *ident = endmsg ? json_object_get(endmsg, "plugin_identity") : NULL;
  json_object_set_new(rec, "plugin_identity", ident ? json_incref(ident) : json_object());
  json_object_set_new(rec, "env_pad", env_pad >= 0 ? json_integer(env_pad) : json_null());
  write_record(r, &r->out, rec);
  json_decref(rec);

  json_t *raw = endmsg ? json_object_get(endmsg, "telemetry_raw") : NULL;
  if (json_is_array(raw) && r->telemetry_out.fd >= 0) {
    size_t i;
    json_t *sample;
    json_array_foreach(raw, i, sample) {
      json_t *line = json_deep_copy(sample);
      json_object_set_new(line, "schema", json_string(RIGOR_RESULT_SCHEMA));
      json_object_set_new(line, "type", json_string("telemetry"));
      json_object_set_new(line, "experiment", json_string(r->e->name));
      json_object_set_new(line, "run", json_integer(a->run));
      json_object_set_new(line, "attempt", json_integer(a->attempt));
      write_record(r, &r->telemetry_out, line);
      json_decref(line);
    }
  }
}

static int run_one(runner_t *r, uint32_t k, uint32_t attempt) {
  const rigor_experiment_t *e = r->e;
  uint32_t n = e->schedule.n_variants;
  uint32_t variant = e->schedule.cells[k];
  const json_t *settings = e->variants[variant].settings;
  const json_t *env = json_object_get(settings, "environment");
  rigor_timing_t timing;
  rigor_timing_defaults(&timing);
  rigor_timing_from_json(json_object_get(settings, "timing"), &timing, r->err, sizeof r->err);

  rigor_child_args_t a = {
      .experiment = e,
      .experiment_name = e->name,
      .settings = settings,
      .plugin = &r->plugin->desc,
      .run = k,
      .attempt = attempt,
      .block = k / n,
      .position = k % n,
      .variant = variant,
      .comm = rigor_comm_single(),
      .out_fd = -1,
      .commands_allowed = r->opts->allow_commands,
  };

  run_outcome_t o = {0};
  char start[32], end[32];
  iso_now(start);
  uint64_t t0 = rigor_now_ns();

  rigor_noise_t *noise = NULL;
  json_t *noise_json = NULL;
  const json_t *noise_cfg = json_object_get(env, "noise");
  char nerr[512];
  if (noise_cfg && !json_is_null(noise_cfg)) {
    if (rigor_noise_start(noise_cfg, &noise, nerr, sizeof nerr) < 0) {
      o.status = "failed";
      snprintf(o.reason, sizeof o.reason, "environment.noise: %s", nerr);
      iso_now(end);
      append_outcome(r, &a, &o, start, end, 0, NULL, -1);
      return 0;
    }
    noise_json = rigor_noise_describe(noise);
  }

  const json_t *launcher = json_object_get(settings, "launcher");
  bool randomize = json_is_true(json_object_get(env, "randomize_env"));
  char pad[RIGOR_ENV_PAD_MAX + 1];
  size_t pad_len = 0;
  if (randomize) rigor_env_pad(e->order.seed, k, pad, sizeof pad, &pad_len);
  long env_pad = randomize ? (long)pad_len : -1;
  int fd = -1;
  pid_t pid;
  rigor_spawn_t sp = {.hold_fd = -1};
  if (json_is_array(launcher) || randomize) {
    json_t *spec = run_spec(r, &a);
    pid = rigor_spawn_exec(r->opts->self_exe, spec, json_is_array(launcher) ? launcher : NULL,
                           json_object_get(settings, "ranks"), randomize ? pad : NULL, &sp, &fd,
                           r->err, sizeof r->err);
    json_decref(spec);
  } else {
    pid = start_forked(&a, &fd);
    if (pid < 0)
      snprintf(r->err, sizeof r->err, "cannot start the run's process: %s", strerror(errno));
  }
  if (pid < 0) {
    rigor_noise_stop(noise);
    o.status = "failed";
    snprintf(o.reason, sizeof o.reason, "%s", r->err);
    iso_now(end);
    append_outcome(r, &a, &o, start, end, 0, noise_json, env_pad);
    return 0;
  }
  g_child_pgid = pid;
  int wstatus = 0;
  bool timed_out = false;
  pump(r, fd, pid, timing.timeout_s, &o, &wstatus, &timed_out);
  g_child_pgid = 0;
  close(fd);
  rigor_spawn_cleanup(&sp);
  rigor_noise_stop(noise);
  classify(timing.timeout_s, wstatus, timed_out, &o);
  iso_now(end);
  double elapsed = (double)(rigor_now_ns() - t0) * 1e-9;
  append_outcome(r, &a, &o, start, end, elapsed, noise_json, env_pad);
  if (!r->io_error && rigor_results_sync(&r->out, r->err, sizeof r->err) < 0)
    r->io_error = RIGOR_EIO;
  r->ran++;
  if (strcmp(o.status, "ok") == 0)
    r->ok++;
  else if (strcmp(o.status, "invalid") == 0)
    r->invalid++;
  else if (strcmp(o.status, "skipped") == 0)
    r->skipped++;
  else if (strcmp(o.status, "interrupted") == 0)
    r->interrupted++;
  else
    r->failed++;
  if (strcmp(o.status, "ok") != 0 && !r->opts->quiet)
    fprintf(stderr, "%srigor: %s run %u (%s): %s: %s\n", r->opts->progress ? "\r\033[K" : "",
            e->name, k, e->variants[variant].label, o.status, o.reason[0] ? o.reason : "-");
  json_decref(o.end);
  return 0;
}

static json_t *schema_json(const rigor_plugin_t *p) {
  static const char *const types[] = {"?",      "bool", "int",    "uint",
                                      "double", "size", "string", "enum"};
  json_t *params = json_array();
  for (uint32_t i = 0; i < p->n_params; i++) {
    const rigor_param_t *q = &p->params[i];
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(q->name));
    json_object_set_new(o, "type", json_string(types[q->type]));
    json_object_set_new(o, "default", q->def ? json_string(q->def) : json_null());
    json_array_append_new(params, o);
  }
  json_t *metrics = json_array();
  for (uint32_t i = 0; i < p->n_metrics; i++) {
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(p->metrics[i].name));
    json_object_set_new(o, "unit", json_string(p->metrics[i].unit ? p->metrics[i].unit : ""));
    json_object_set_new(
        o, "better",
        json_string(p->metrics[i].better == RIGOR_HIGHER_IS_BETTER ? "higher" : "lower"));
    json_array_append_new(metrics, o);
  }
  json_t *o = json_object();
  json_object_set_new(o, "params", params);
  json_object_set_new(o, "metrics", metrics);
  return o;
}

static json_t *experiment_record(const runner_t *r) {
  const rigor_experiment_t *e = r->e;
  json_t *rec = json_object();
  json_object_set_new(rec, "schema", json_string(RIGOR_RESULT_SCHEMA));
  json_object_set_new(rec, "type", json_string("experiment"));
  json_object_set_new(rec, "experiment", json_string(e->name));
  json_object_set_new(rec, "name", json_string(e->name));
  json_object_set_new(rec, "hash", json_string(e->hash));
  json_object_set_new(rec, "source", json_string(e->source ? e->source : ""));
  json_object_set_new(rec, "config", json_deep_copy(e->resolved));
  json_t *variants = json_array();
  for (uint32_t i = 0; i < e->n_variants; i++) {
    json_t *v = json_object();
    json_object_set_new(v, "index", json_integer(i));
    json_object_set_new(v, "label", json_string(e->variants[i].label));
    json_object_set_new(v, "axes", json_deep_copy(e->variants[i].axes));
    json_object_set_new(v, "settings", json_deep_copy(e->variants[i].settings));
    json_array_append_new(variants, v);
  }
  json_object_set_new(rec, "variants", variants);
  const rigor_schedule_t *s = &e->schedule;
  json_t *sched = json_object();
  json_object_set_new(sched, "design", json_string(rigor_order_design_names[e->order.design]));
  json_object_set_new(sched, "seed", json_integer((json_int_t)e->order.seed));
  json_object_set_new(sched, "replicates", json_integer(e->order.replicates));
  json_object_set_new(sched, "randomize", json_boolean(e->order.randomize));
  json_object_set_new(sched, "square_rows", json_integer(s->square_rows));
  json_object_set_new(sched, "incomplete", json_boolean(s->incomplete));
  json_t *blocks = json_array();
  for (uint32_t b = 0; b < s->n_blocks; b++) {
    json_t *row = json_array();
    for (uint32_t p = 0; p < s->n_variants; p++)
      json_array_append_new(row, json_integer(s->cells[b * s->n_variants + p]));
    json_array_append_new(blocks, row);
  }
  json_object_set_new(sched, "blocks", blocks);
  json_object_set_new(rec, "schedule", sched);
  json_t *plugin = schema_json(&r->plugin->desc);
  json_object_set_new(plugin, "name", json_string(r->plugin->desc.name));
  json_object_set_new(plugin, "version",
                      json_string(r->plugin->desc.version ? r->plugin->desc.version : ""));
  json_object_set_new(plugin, "file", json_string(r->plugin->path));
  char sha[65] = "";
  rigor_file_sha256(r->plugin->path, sha);
  json_object_set_new(plugin, "sha256", json_string(sha));
  json_object_set_new(rec, "plugin", plugin);
  rigor_clock_info_t clock;
  rigor_clock_probe(&clock);
  json_t *cj = json_object();
  json_object_set_new(cj, "source", json_string("CLOCK_MONOTONIC"));
  json_object_set_new(cj, "resolution_s", json_real(clock.resolution_s));
  json_object_set_new(cj, "now_cost_s", json_real(clock.now_cost_s));
  json_object_set_new(rec, "clock", cj);
  json_object_set_new(rec, "identity", rigor_identity_host());
  json_object_set_new(rec, "checks", rigor_env_check());
  char created[32];
  iso_now(created);
  json_object_set_new(rec, "created", json_string(created));
  json_t *rv = json_object();
  json_object_set_new(rv, "version", json_string(RIGOR_VERSION));
  json_object_set_new(rv, "git", json_string(RIGOR_GIT_HASH));
  json_object_set_new(rec, "rigor", rv);
  return rec;
}

/* The dotted paths (the first few) where two canonical configs differ. */
static void config_differences(const json_t *old_cfg, const json_t *new_cfg, char *out,
                               size_t cap) {
  json_t *diffs = rigor_json_diff(old_cfg, new_cfg, "");
  size_t used = 0, i;
  json_t *d;
  out[0] = '\0';
  json_array_foreach(diffs, i, d) {
    if (i == 6 || used >= cap) break;
    used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? ", " : "",
                             json_string_value(json_object_get(d, "path")));
  }
  json_decref(diffs);
}

typedef struct resume_state {
  bool have_experiment;
  uint8_t *done;     /* per run: 1 when completed (ok, skipped, invalid) */
  uint32_t *attempt; /* per run: last attempt seen */
} resume_state_t;

static int resume_scan(runner_t *r, const char *path, resume_state_t *rs) {
  const rigor_experiment_t *e = r->e;
  size_t runs = (size_t)e->schedule.n_blocks * e->schedule.n_variants;
  rs->done = calloc(runs ? runs : 1, 1);
  rs->attempt = calloc(runs ? runs : 1, sizeof *rs->attempt);
  json_t *records = NULL;
  bool truncated = false;
  if (rigor_results_load(path, &records, &truncated, r->err, sizeof r->err) < 0)
    return RIGOR_ECONFIG;
  size_t i;
  json_t *rec;
  int rc = 0;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    const char *name = json_string_value(json_object_get(rec, "experiment"));
    if (!type || !name || strcmp(name, e->name) != 0) continue;
    if (strcmp(type, "experiment") == 0) {
      const char *hash = json_string_value(json_object_get(rec, "hash"));
      if (!hash || strcmp(hash, e->hash) != 0) {
        char diff[512];
        config_differences(json_object_get(rec, "config"), e->resolved, diff, sizeof diff);
        snprintf(r->err, sizeof r->err,
                 "%s: cannot resume experiment '%s': the file holds experiment hash %.12s…, the "
                 "config now gives %.12s… (changed: %s); use --force to start over or another -o",
                 path, e->name, hash ? hash : "(none)", e->hash, diff[0] ? diff : "details");
        rc = RIGOR_ECONFIG;
        break;
      }
      rs->have_experiment = true;
    } else if (strcmp(type, "run") == 0) {
      json_int_t k = json_integer_value(json_object_get(rec, "run"));
      json_int_t att = json_integer_value(json_object_get(rec, "attempt"));
      const char *st = json_string_value(json_object_get(rec, "status"));
      if (k < 0 || (size_t)k >= runs) continue;
      if ((uint32_t)att > rs->attempt[k]) rs->attempt[k] = (uint32_t)att;
      if (st && (!strcmp(st, "ok") || !strcmp(st, "skipped") || !strcmp(st, "invalid")))
        rs->done[k] = 1;
    } else if (strcmp(type, "sample") == 0) {
      json_int_t k = json_integer_value(json_object_get(rec, "run"));
      json_int_t att = json_integer_value(json_object_get(rec, "attempt"));
      if (k >= 0 && (size_t)k < runs && (uint32_t)att > rs->attempt[k])
        rs->attempt[k] = (uint32_t)att;
    }
  }
  json_decref(records);
  if (rc == 0 && truncated) {
    /* A killed writer left half a line: cut it so appended records start on a fresh line. */
    struct stat st;
    FILE *f = fopen(path, "rb");
    if (f && stat(path, &st) == 0 && st.st_size > 0) {
      off_t last_nl = -1;
      char buf[4096];
      off_t pos = st.st_size;
      while (pos > 0 && last_nl < 0) {
        off_t chunk = pos > (off_t)sizeof buf ? (off_t)sizeof buf : pos;
        pos -= chunk;
        fseeko(f, pos, SEEK_SET);
        size_t got = fread(buf, 1, (size_t)chunk, f);
        for (off_t j = (off_t)got - 1; j >= 0; j--)
          if (buf[j] == '\n') {
            last_nl = pos + j;
            break;
          }
      }
      fclose(f);
      f = NULL;
      if (truncate(path, last_nl + 1) != 0) rc = RIGOR_EIO;
    }
    if (f) fclose(f);
  }
  return rc;
}

static void progress(const runner_t *r, uint32_t k, uint32_t total, uint32_t done_now,
                     uint64_t t_start) {
  if (!r->opts->progress) return;
  double elapsed = (double)(rigor_now_ns() - t_start) * 1e-9;
  double eta = done_now ? elapsed / done_now * (total - k) : 0;
  const rigor_variant_t *v = &r->e->variants[r->e->schedule.cells[k]];
  fprintf(stderr, "\r\033[K[%u/%u] %s: %s  ETA %d:%02d", k + 1, total, r->e->name, v->label,
          (int)eta / 60, (int)eta % 60);
  fflush(stderr);
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

/* Runs an experiment whose plugin is loaded; the caller unloads it on every path. */
static int run_loaded_experiment(runner_t *r, claimed_t *claimed) {
  const rigor_experiment_t *e = r->e;
  if (e->runs_commands && !r->opts->allow_commands) {
    snprintf(r->err, sizeof r->err,
             "experiment '%s' would execute external commands (see `rigor plan`); rerun with "
             "--allow-commands to permit them",
             e->name);
    return RIGOR_EXIT_USAGE;
  }
  bool mine = claimed_has(claimed, e->output);
  bool exists = file_nonempty(e->output);
  if (exists && !mine && !r->opts->resume && !r->opts->force) {
    snprintf(r->err, sizeof r->err,
             "%s already exists; rigor never overwrites results: use --resume to finish it, "
             "--force to replace it, or -o for another file",
             e->output);
    return RIGOR_EXIT_USAGE;
  }
  resume_state_t rs = {0};
  if (exists && r->opts->resume && resume_scan(r, e->output, &rs) < 0) {
    free(rs.done);
    free(rs.attempt);
    return RIGOR_EXIT_USAGE;
  }
  bool truncate_it = exists && r->opts->force && !mine && !r->opts->resume;
  /* The raw telemetry sidecar opens first: a run asked for that evidence, so a sidecar that
   * cannot be written stops it before the results file is touched. */
  r->telemetry_out.fd = -1;
  int opened = 0;
  for (uint32_t i = 0; i < e->n_variants && opened == 0; i++) {
    const json_t *tel =
        json_object_get(json_object_get(e->variants[i].settings, "environment"), "telemetry");
    if (json_is_true(json_object_get(tel, "raw"))) {
      char side[4096];
      snprintf(side, sizeof side, "%s.telemetry.jsonl", e->output);
      opened = rigor_results_open(&r->telemetry_out, side, truncate_it, r->err, sizeof r->err);
      break;
    }
  }
  if (opened == 0)
    opened = rigor_results_open(&r->out, e->output, truncate_it, r->err, sizeof r->err);
  if (opened < 0) {
    if (r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
    r->telemetry_out.fd = -1;
    free(rs.done);
    free(rs.attempt);
    /* A path that is a link or not a file is a usage error; a failing disk is a failed run. */
    return opened == RIGOR_ECONFIG ? RIGOR_EXIT_USAGE : RIGOR_EXIT_RUN_FAILED;
  }
  if (!mine) {
    claimed->paths = realloc(claimed->paths, (claimed->n + 1) * sizeof *claimed->paths);
    claimed->paths[claimed->n++] = strdup(e->output);
  }
  if (!rs.have_experiment) {
    json_t *rec = experiment_record(r);
    write_record(r, &r->out, rec);
    json_decref(rec);
    if (!r->io_error) rigor_results_sync(&r->out, r->err, sizeof r->err);
  }
  uint32_t total = e->schedule.n_blocks * e->schedule.n_variants;
  uint64_t t_start = rigor_now_ns();
  uint32_t done_now = 0;
  for (uint32_t k = 0; k < total && !g_stop && !r->io_error; k++) {
    if (rs.done && rs.done[k]) continue;
    progress(r, k, total, done_now, t_start);
    run_one(r, k, rs.attempt ? rs.attempt[k] + 1 : 1);
    done_now++;
  }
  if (r->opts->progress) fprintf(stderr, "\r\033[K");
  free(rs.done);
  free(rs.attempt);
  rigor_results_sync(&r->out, r->err, sizeof r->err);
  rigor_results_close(&r->out);
  if (r->telemetry_out.fd >= 0) rigor_results_close(&r->telemetry_out);
  if (r->io_error) return RIGOR_EXIT_RUN_FAILED;
  if (!r->opts->quiet) fprintf(stderr, "rigor: %s: %u runs -> %s\n", e->name, done_now, e->output);
  return RIGOR_EXIT_OK;
}

static int run_experiment(runner_t *r, claimed_t *claimed) {
  const rigor_experiment_t *e = r->e;
  const char *plugin_name = json_string_value(json_object_get(e->resolved, "plugin"));
  if (!plugin_name && e->n_variants)
    plugin_name = json_string_value(json_object_get(e->variants[0].settings, "plugin"));
  if (rigor_plugin_load(plugin_name ? plugin_name : "", &r->opts->search, &r->plugin, r->err,
                        sizeof r->err) < 0)
    return RIGOR_EXIT_USAGE;
  int code = run_loaded_experiment(r, claimed);
  rigor_plugin_unload(r->plugin);
  r->plugin = NULL;
  return code;
}

int rigor_runner_execute(const rigor_config_t *cfg, const rigor_run_opts_t *opts) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN); /* a file size limit becomes EFBIG, reported, not a silent death */
  g_stop = 0;

  runner_t r = {.opts = opts};
  claimed_t claimed = {0};
  int code = RIGOR_EXIT_OK;
  for (uint32_t i = 0; i < cfg->n_experiments && !g_stop; i++) {
    r.e = &cfg->experiments[i];
    r.io_error = 0;
    r.err[0] = '\0';
    int rc = run_experiment(&r, &claimed);
    if (rc != RIGOR_EXIT_OK) {
      fprintf(stderr, "rigor: %s\n", r.err);
      code = rc;
      break;
    }
  }
  for (size_t i = 0; i < claimed.n; i++)
    free(claimed.paths[i]);
  free(claimed.paths);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (g_stop) {
    fprintf(stderr,
            "rigor: stopped by %s; the results file holds every finished run (use --resume to "
            "finish)\n",
            strsignal(g_stop));
    return 128 + g_stop;
  }
  if (code != RIGOR_EXIT_OK) return code;
  if (r.failed) return RIGOR_EXIT_RUN_FAILED;
  if (r.invalid) return RIGOR_EXIT_CHECK_FAILED;
  if (r.ran > 0 && r.skipped == r.ran) return RIGOR_EXIT_ALL_SKIPPED;
  return RIGOR_EXIT_OK;
}
