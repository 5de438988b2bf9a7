#include "campaign.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "reader.h"
#include "runner_internal.h"
#include "signals.h"

/* One node's step: pid 0 while the node is free. */
typedef struct step {
  pid_t pid;
  uint32_t block;
  uint32_t *runs;
  size_t n_runs;
  char part[PATH_MAX + 512], log[PATH_MAX + 512];
} step_t;

void rigor_campaign_cpus(const char *text, unsigned *out, size_t n_nodes) {
  size_t i = 0;
  const char *p = text ? text : "";
  while (*p && i < n_nodes) {
    char *end = NULL;
    unsigned long cpus = strtoul(p, &end, 10), times = 1;
    if (end == p) break;
    p = end;
    if (strncmp(p, "(x", 2) == 0) {
      times = strtoul(p + 2, &end, 10);
      p = end;
      if (*p == ')') p++;
    }
    for (unsigned long t = 0; t < times && i < n_nodes; t++)
      out[i++] = (unsigned)cpus;
    if (*p == ',') p++;
  }
  for (; i < n_nodes; i++)
    out[i] = 0;
}

static uint32_t per_block(const rigor_job_t *job) {
  return job->n_arms ? job->n_cells : job->n_variants;
}

static const char *run_label(const rigor_job_t *job, uint32_t k) {
  uint32_t cell = job->cells[k];
  uint32_t v = job->n_arms ? job->arms[(size_t)cell * job->n_arms] : cell;
  return job->variants[v].label;
}

/* Appends the finished runs of a part that the results file lacks: each run's samples and its
 * run record, renumbered to the attempt the file's history gives it. `runs` (NULL: any) limits
 * it to the runs its step was given. Returns the runs merged. */
static size_t merge_part(runner_t *r, rigor_resume_t *rs, const char *path, const uint32_t *runs,
                         size_t n_runs, uint32_t *done) {
  const rigor_job_t *job = r->job;
  uint32_t total = job->n_blocks * per_block(job);
  json_t *records = NULL;
  bool truncated = false;
  char err[512];
  if (rigor_results_load(path, &records, &truncated, err, sizeof err) != 0) return 0;
  /* The attempt of each finished run the part holds and the file lacks; 0 for none. */
  uint32_t *take = calloc(total ? total : 1, sizeof *take);
  size_t i, merged = 0;
  json_t *rec;
  bool same_experiment = false;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    const char *exp = json_string_value(json_object_get(rec, "experiment"));
    if (!type || !exp || strcmp(exp, job->name) != 0) continue;
    if (strcmp(type, "experiment") == 0)
      same_experiment = !strcmp(json_string_value(json_object_get(rec, "hash")) ?: "", job->hash);
    if (strcmp(type, "run") != 0 || !take) continue;
    json_int_t k = json_integer_value(json_object_get(rec, "run"));
    bool listed = !runs;
    for (size_t j = 0; runs && j < n_runs && !listed; j++)
      listed = runs[j] == (uint32_t)k;
    const char *st = json_string_value(json_object_get(rec, "status"));
    if (listed && k >= 0 && (uint32_t)k < total && !rs->done[k] && st &&
        rigor_run_status_final(rigor_run_status_parse(st)))
      take[k] = (uint32_t)json_integer_value(json_object_get(rec, "attempt"));
  }
  /* The attempt each taken run becomes: its samples, run record and telemetry all carry it. */
  uint32_t *as = calloc(total ? total : 1, sizeof *as);
  for (uint32_t k = 0; as && take && k < total; k++)
    as[k] = rs->attempt[k] + 1;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    const char *exp = json_string_value(json_object_get(rec, "experiment"));
    if (!same_experiment || !take || !as || !type || !exp || strcmp(exp, job->name) != 0) continue;
    bool sample = strcmp(type, "sample") == 0, run = strcmp(type, "run") == 0;
    bool telemetry = strcmp(type, "telemetry") == 0;
    json_int_t k = json_integer_value(json_object_get(rec, "run"));
    if (!(sample || run || telemetry) || k < 0 || (uint32_t)k >= total || !take[k] ||
        (uint32_t)json_integer_value(json_object_get(rec, "attempt")) != take[k])
      continue;
    json_object_set_new(rec, "attempt", json_integer(as[k]));
    if (telemetry) {
      rigor__runner_append_telemetry(r, rec);
      continue;
    }
    rigor__runner_append(r, rec);
    if (!run) continue;
    rs->done[k] = 1;
    rs->attempt[k] = as[k];
    merged++;
    rigor_run_status_t status =
        rigor_run_status_parse(json_string_value(json_object_get(rec, "status")));
    rigor__runner_count(r, status);
    const char *reason = json_string_value(json_object_get(rec, "reason"));
    json_t *slurm = json_object_get(rec, "slurm");
    char label[512];
    snprintf(label, sizeof label, "%s @ %s", run_label(job, (uint32_t)k),
             json_string_value(json_object_get(slurm, "node")) ?: "?");
    rigor_progress_t p = {.event = RIGOR_PROGRESS_RUN_END,
                          .run = (uint32_t)k,
                          .total = total,
                          .done = ++*done,
                          .label = label,
                          .status = status,
                          .reason = reason,
                          .elapsed_s = (double)(rigor_now_ns() - r->job_start_ns) * 1e-9,
                          .run_s = json_number_value(json_object_get(rec, "elapsed_s"))};
    rigor__runner_report(r, &p);
  }
  free(take), free(as);
  json_decref(records);
  rigor__runner_sync(r);
  return merged;
}

/* The parts a driver that died left behind: their finished runs enter a resumed file, then they
 * go; a new or replaced file (--force) starts over without them. */
static void salvage(runner_t *r, rigor_resume_t *rs, const char *dir, uint32_t *done) {
  DIR *d = opendir(dir);
  if (!d) return;
  char prefix[1024];
  snprintf(prefix, sizeof prefix, "%s.b", r->job->name);
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < 6 ||
        strcmp(e->d_name + len - 6, ".jsonl") != 0)
      continue;
    char path[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t n = rs->have_experiment ? merge_part(r, rs, path, NULL, 0, done) : 0;
    if (n) fprintf(stderr, "rigor: %s: %zu finished runs of a step recovered\n", path, n);
    unlink(path);
  }
  closedir(d);
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *out = NULL;
  if (vasprintf(&out, fmt, ap) < 0) out = NULL;
  va_end(ap);
  return out;
}

/* Starts `srun ... CMD` as one job step of one task on node i, its stdout into `out_path`
 * (NULL: into the log too) and its stderr into `log_path`; the pid, or -1 with errno. `cmd` is
 * NULL-terminated. srun carries the step's stdout back to this node, so what a step sends there
 * needs no file system shared with it. */
static pid_t launch(const rigor_campaign_t *c, size_t node, const char *name, char *const *cmd,
                    const char *out_path, const char *log_path) {
  size_t n_cmd = 0;
  while (cmd[n_cmd])
    n_cmd++;
  char **argv = calloc(n_cmd + 10, sizeof *argv);
  if (!argv) return -1;
  size_t a = 0;
  argv[a++] = format("srun");
  argv[a++] = format("--nodes=1");
  argv[a++] = format("--ntasks=1");
  argv[a++] = format("--nodelist=%s", c->nodes[node]);
  argv[a++] = format("--exact");
  /* The step holds the whole node's share of the allocation: its runs are its only work. */
  if (c->cpus && c->cpus[node]) argv[a++] = format("--cpus-per-task=%u", c->cpus[node]);
  argv[a++] = format("--job-name=%s", name);
  for (size_t i = 0; i < n_cmd; i++)
    argv[a++] = format("%s", cmd[i]);
  argv[a] = NULL;
  bool whole = true;
  for (size_t i = 0; i < a; i++)
    whole = whole && argv[i];
  int log = whole ? open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
  int out =
      log >= 0 && out_path ? open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : log;
  fflush(NULL);
  pid_t pid = log < 0 || out < 0 ? -1 : fork();
  if (pid == 0) {
    dup2(out, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    execvp(argv[0], argv);
    fprintf(stderr, "rigor: cannot execute srun: %s\n", strerror(errno));
    _exit(127);
  }
  int e = errno;
  if (out >= 0 && out != log) close(out);
  if (log >= 0) close(log);
  for (size_t i = 0; i < a; i++)
    free(argv[i]);
  free(argv);
  errno = e;
  return pid;
}

/* Starts block b's unfinished runs on node i, with `left_s` of the experiment's deadline (0:
 * none); returns 0, or -1 with r->err. The step sends its records over its stdout, which
 * becomes the part. */
static int start_step(runner_t *r, const rigor_resume_t *rs, step_t *s, size_t node, uint32_t b,
                      const char *dir, double left_s) {
  const rigor_campaign_t *c = r->opts->campaign;
  const rigor_job_t *job = r->job;
  uint32_t n = per_block(job);
  s->n_runs = 0;
  s->runs = calloc(n, sizeof *s->runs);
  if (!s->runs) return snprintf(r->err, r->errlen, "out of memory"), -1;
  char list[4096] = "";
  for (uint32_t k = b * n; k < (b + 1) * n; k++) {
    if (rs->done[k]) continue;
    s->runs[s->n_runs++] = k;
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%u", used ? "," : "", k);
  }
  if (left_s > 0) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "@%.3f", left_s);
  }
  s->block = b;
  snprintf(s->part, sizeof s->part, "%s/%s.b%u.jsonl", dir, job->name, b);
  snprintf(s->log, sizeof s->log, "%s/%s.b%u.log", dir, job->name, b);
  size_t n_args = 0;
  while (c->step_args[n_args])
    n_args++;
  char **cmd = calloc(n_args + 12, sizeof *cmd);
  if (!cmd) return snprintf(r->err, r->errlen, "out of memory"), -1;
  size_t a = 0;
  cmd[a++] = format("%s", c->self);
  cmd[a++] = format("__step");
  cmd[a++] = format("%s", list);
  for (size_t i = 0; i < n_args; i++)
    cmd[a++] = format("%s", c->step_args[i]);
  cmd[a++] = format("--only");
  cmd[a++] = format("%s", job->name);
  cmd[a++] = format("--force");
  cmd[a++] = format("--no-report");
  cmd[a++] = format("--heartbeat=0");
  cmd[a] = NULL;
  char name[1024];
  snprintf(name, sizeof name, "%s.b%u", job->name, b);
  bool whole = true;
  for (size_t i = 0; i < a; i++)
    whole = whole && cmd[i];
  pid_t pid = whole ? launch(c, node, name, cmd, s->part, s->log) : -1;
  int e = whole ? errno : ENOMEM;
  for (size_t i = 0; i < a; i++)
    free(cmd[i]);
  free(cmd);
  if (pid < 0) {
    snprintf(r->err, r->errlen, "cannot start a job step for block %u: %s", b, strerror(e));
    free(s->runs);
    s->runs = NULL;
    return -1;
  }
  s->pid = pid;
  rigor_progress_t p = {.event = RIGOR_PROGRESS_RUN_START,
                        .run = s->runs[0],
                        .total = job->n_blocks * n,
                        .label = c->nodes[node]};
  rigor__runner_report(r, &p);
  return 0;
}

/* A step ended: its finished runs enter the results file; a step that failed says so. */
static size_t finish_step(runner_t *r, rigor_resume_t *rs, step_t *s, const char *node, int wstatus,
                          uint32_t *done) {
  size_t merged = merge_part(r, rs, s->part, s->runs, s->n_runs, done);
  bool clean = WIFEXITED(wstatus) && merged == s->n_runs;
  if (!clean && !rigor_signals_received())
    fprintf(stderr,
            "rigor: the step of block %u on node %s ended (%s %d) with %zu of its %zu runs "
            "finished; its log: %s (rigor run --resume runs the rest)\n",
            s->block, node, WIFEXITED(wstatus) ? "exit" : "signal",
            WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus), merged, s->n_runs,
            s->log);
  unlink(s->part);
  if (clean) unlink(s->log);
  free(s->runs);
  s->runs = NULL;
  s->pid = 0;
  return merged;
}

/* The next block at or after *next with a run the file lacks. */
static bool next_block(const runner_t *r, const rigor_resume_t *rs, uint32_t *next) {
  uint32_t n = per_block(r->job);
  for (uint32_t b = *next; b < r->job->n_blocks; b++)
    for (uint32_t k = b * n; k < (b + 1) * n; k++)
      if (!rs->done[k]) return *next = b, true;
  return false;
}

/* Blocks whose every run the file holds, in whatever order they ended. */
static uint32_t complete_blocks(const runner_t *r, const rigor_resume_t *rs) {
  uint32_t n = per_block(r->job), whole = 0;
  for (uint32_t b = 0; b < r->job->n_blocks; b++) {
    bool all = true;
    for (uint32_t k = b * n; k < (b + 1) * n && all; k++)
      all = rs->done[k] != 0;
    whole += all;
  }
  return whole;
}

int rigor__campaign_run(runner_t *r, rigor_resume_t *rs) {
  const rigor_campaign_t *c = r->opts->campaign;
  const rigor_job_t *job = r->job;
  uint32_t total = job->n_blocks * per_block(job);
  if (!rs->done) {
    rs->n_runs = total;
    rs->done = calloc(total ? total : 1, 1);
    rs->attempt = calloc(total ? total : 1, sizeof *rs->attempt);
    if (!rs->done || !rs->attempt) return snprintf(r->err, r->errlen, "out of memory"), -1;
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s.steps", job->output);
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    snprintf(r->err, r->errlen, "cannot create %s: %s", dir, strerror(errno));
    return RIGOR_EIO;
  }
  uint32_t done = 0, next = 0;
  r->job_start_ns = rigor_now_ns();
  uint64_t deadline_ns =
      job->deadline_s > 0 ? r->job_start_ns + (uint64_t)(job->deadline_s * 1e9) : 0;
  salvage(r, rs, dir, &done);
  step_t *steps = calloc(c->n_nodes ? c->n_nodes : 1, sizeof *steps);
  if (!steps) return snprintf(r->err, r->errlen, "out of memory"), -1;
  int rc = 0;
  /* An experiment that a stop record ended has nothing left to run. */
  bool stopping = false, settled = rs->stopped, deadline = false;
  uint32_t judged = complete_blocks(r, rs);
  json_t *stop = NULL;
  for (;;) {
    if (!stopping && (rigor_signals_received() || r->failed || rc)) {
      stopping = true;
      /* srun ends its step on SIGTERM; what the steps finished is merged as they end. */
      for (size_t i = 0; i < c->n_nodes; i++)
        if (steps[i].pid) kill(steps[i].pid, SIGTERM);
    }
    uint64_t now = rigor_now_ns();
    if (deadline_ns && now >= deadline_ns && next_block(r, rs, &next)) deadline = true;
    for (size_t i = 0; i < c->n_nodes && !stopping && !settled && !deadline; i++) {
      if (steps[i].pid || !next_block(r, rs, &next)) continue;
      double left_s = deadline_ns ? (double)(deadline_ns - now) * 1e-9 : 0;
      if (start_step(r, rs, &steps[i], i, next, dir, left_s) != 0) {
        rc = RIGOR_EIO;
        break;
      }
      next++;
    }
    size_t busy = 0;
    bool ended = false;
    for (size_t i = 0; i < c->n_nodes; i++) {
      if (!steps[i].pid) continue;
      int wstatus;
      pid_t got = waitpid(steps[i].pid, &wstatus, WNOHANG);
      if (got == steps[i].pid)
        finish_step(r, rs, &steps[i], c->nodes[i], wstatus, &done), ended = true;
      else
        busy++;
    }
    /* Each block that ends is a look at the experiment's answer, as a run here makes one; the
     * stop record is held until the steps still running have been merged, so that it comes
     * last. */
    for (uint32_t whole = ended ? complete_blocks(r, rs) : judged;
         !stopping && !rc && !r->failed && judged < whole;) {
      judged++;
      rigor_block_event_t event = judged == job->n_blocks ? RIGOR_BLOCK_LAST : RIGOR_BLOCK_DONE;
      if (!rigor__runner_ask(r, event, judged, &stop) && !r->failed) settled = true;
    }
    if (!busy && (stopping || settled || deadline || !next_block(r, rs, &next))) break;
    usleep(100000);
  }
  free(steps);
  rmdir(dir); /* when empty: the logs of failed steps stay */
  if (deadline && !stopping && !settled) rigor__runner_ask(r, RIGOR_BLOCK_DEADLINE, judged, &stop);
  if (stop && !r->failed) {
    rigor__runner_append(r, stop);
    rigor__runner_sync(r);
  }
  json_decref(stop);
  uint32_t left = 0;
  for (uint32_t k = 0; k < total; k++)
    left += !rs->done[k];
  if (left && !settled && !deadline && !rigor_signals_received() && !rc) {
    fprintf(stderr,
            "rigor: %u runs of experiment '%s' did not finish; rigor run --resume runs them\n",
            left, job->name);
    r->tally->ran += left;
    r->tally->failed += left;
  }
  rigor_progress_t p = {
      .event = RIGOR_PROGRESS_JOB_END, .total = total, .done = done, .deadline = deadline};
  if (!rc && !r->failed) rigor__runner_report(r, &p);
  return rc;
}

int rigor_campaign_each_node(const rigor_campaign_t *c, const char *dir, const char *name,
                             int *statuses, char *err, size_t errlen) {
  pid_t *pids = calloc(c->n_nodes ? c->n_nodes : 1, sizeof *pids);
  if (!pids) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  size_t n_args = 0;
  while (c->step_args[n_args])
    n_args++;
  int rc = 0;
  for (size_t i = 0; i < c->n_nodes && !rc; i++) {
    char out[PATH_MAX + 300], log[PATH_MAX + 300];
    snprintf(out, sizeof out, "%s/%s.jsonl", dir, c->nodes[i]);
    snprintf(log, sizeof log, "%s/%s.log", dir, c->nodes[i]);
    const char **cmd = calloc(n_args + 2, sizeof *cmd);
    if (!cmd) {
      rc = RIGOR_ENOMEM;
      break;
    }
    cmd[0] = c->self;
    for (size_t k = 0; k < n_args; k++)
      cmd[k + 1] = c->step_args[k];
    pids[i] = launch(c, i, name, (char *const *)cmd, out, log);
    free(cmd);
    if (pids[i] < 0) {
      snprintf(err, errlen, "cannot start a job step on %s: %s", c->nodes[i], strerror(errno));
      rc = RIGOR_EIO;
    }
  }
  for (size_t i = 0; i < c->n_nodes; i++) {
    statuses[i] = -1;
    if (pids[i] <= 0) continue;
    while (waitpid(pids[i], &statuses[i], 0) < 0 && errno == EINTR)
      ;
  }
  free(pids);
  return rc;
}
