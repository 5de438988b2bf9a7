#include "slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void put_env(json_t *o, const char *key, const char *name, bool number) {
  const char *v = getenv(name);
  if (!v || !*v) return;
  char *end = NULL;
  long long n = strtoll(v, &end, 10);
  json_object_set_new(o, key, number && end && !*end ? json_integer(n) : json_string(v));
}

json_t *rigor_slurm_where(void) {
  if (!getenv("SLURM_JOB_ID")) return NULL;
  json_t *o = json_object();
  put_env(o, "job_id", "SLURM_JOB_ID", false);
  put_env(o, "step_id", "SLURM_STEP_ID", false);
  put_env(o, "node", "SLURMD_NODENAME", false);
  put_env(o, "nodes", getenv("SLURM_STEP_NODELIST") ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST",
          false);
  put_env(o, "tasks", getenv("SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS",
          true);
  put_env(o, "rank", "SLURM_PROCID", true);
  return o;
}

int rigor_slurm_single_task(char *err, size_t errlen) {
  const char *tasks = getenv("SLURM_STEP_NUM_TASKS");
  if (!tasks || !getenv("SLURM_PROCID")) return 0;
  long n = strtol(tasks, NULL, 10);
  if (n == 1) return 1;
  if (getenv("PMIX_RANK") || getenv("PMI_FD") || getenv("PMI_RANK")) return 0;
  snprintf(err, errlen,
           "srun started %ld tasks without an MPI bootstrap, so they cannot find each other: "
           "give the launcher --mpi=pmix (srun --mpi=list shows what this Slurm offers)",
           n);
  return -1;
}

/* Runs argv with stdout into buf (NUL-terminated, truncated to cap); returns its exit status,
 * or -1 when it could not run or was killed. stderr goes to /dev/null. */
static int capture(char *const argv[], char *buf, size_t cap) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR);
    dup2(fds[1], STDOUT_FILENO);
    if (null >= 0) dup2(null, STDERR_FILENO), dup2(null, STDIN_FILENO);
    signal(SIGPIPE, SIG_DFL);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(fds[1]);
  size_t len = 0;
  for (;;) {
    char scratch[4096];
    ssize_t n = read(fds[0], len + 1 < cap ? buf + len : scratch,
                     len + 1 < cap ? cap - len - 1 : sizeof scratch);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (len + 1 < cap) len += (size_t)n;
  }
  buf[len < cap ? len : cap - 1] = '\0';
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

json_t *rigor_slurm_hostnames(const char *nodelist, char *err, size_t errlen) {
  char out[65536];
  char *argv[] = {"scontrol", "show", "hostnames", (char *)nodelist, NULL};
  if (!nodelist || !*nodelist || capture(argv, out, sizeof out) != 0) {
    snprintf(err, errlen, "cannot expand the node list '%s' (scontrol show hostnames)",
             nodelist ? nodelist : "");
    return NULL;
  }
  json_t *names = json_array();
  for (char *save = NULL, *tok = strtok_r(out, " \t\n", &save); tok;
       tok = strtok_r(NULL, " \t\n", &save))
    json_array_append_new(names, json_string(tok));
  if (json_array_size(names) == 0) {
    json_decref(names);
    snprintf(err, errlen, "the node list '%s' names no node", nodelist);
    return NULL;
  }
  return names;
}

/* A state sinfo gives a node that can take a job now: not down, drained, failing, in
 * maintenance or unknown, and responding (no '*'). */
static bool usable_state(const char *state) {
  static const char *const ok[] = {"idle", "mix", "alloc", "comp", NULL};
  if (strchr(state, '*') || strstr(state, "drain") || strstr(state, "drng")) return false;
  for (size_t i = 0; ok[i]; i++)
    if (strncmp(state, ok[i], strlen(ok[i])) == 0) return true;
  return false;
}

json_t *rigor_slurm_all_nodes(json_t **unusable, char *err, size_t errlen) {
  *unusable = json_object();
  char out[65536];
  char *argv[] = {"sinfo", "-h", "-N", "-o", "%N %t", NULL};
  if (capture(argv, out, sizeof out) != 0) {
    snprintf(err, errlen, "cannot list the cluster's nodes (sinfo -N)");
    return NULL;
  }
  json_t *idle = json_array(), *rest = json_array();
  for (char *save = NULL, *line = strtok_r(out, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    char name[256], state[64];
    if (sscanf(line, "%255s %63s", name, state) != 2) continue;
    bool seen = false;
    size_t i;
    json_t *v;
    json_array_foreach(idle, i, v) seen = seen || !strcmp(json_string_value(v), name);
    json_array_foreach(rest, i, v) seen = seen || !strcmp(json_string_value(v), name);
    seen = seen || json_object_get(*unusable, name);
    if (seen) continue;
    if (!usable_state(state))
      json_object_set_new(*unusable, name, json_string(state));
    else
      json_array_append_new(strcmp(state, "idle") == 0 ? idle : rest, json_string(name));
  }
  json_array_extend(idle, rest);
  json_decref(rest);
  if (json_array_size(idle) == 0) {
    json_decref(idle);
    snprintf(err, errlen, "sinfo lists no node that can run a job now");
    return NULL;
  }
  return idle;
}

/* The value of KEY=VALUE in scontrol's one-line output. */
static void field(const char *text, const char *key, char *out, size_t len) {
  out[0] = '\0';
  size_t k = strlen(key);
  for (const char *p = text; (p = strstr(p, key)); p += k) {
    if ((p != text && p[-1] != ' ') || p[k] != '=') continue;
    const char *v = p + k + 1;
    size_t n = strcspn(v, " \n");
    snprintf(out, len, "%.*s", (int)n, v);
    return;
  }
}

int rigor_slurm_job_info(const char *job_id, char *state, size_t state_len, char *reason,
                         size_t reason_len, int *exit_code) {
  char out[16384], code[64];
  char *argv[] = {"scontrol", "-o", "show", "job", (char *)job_id, NULL};
  if (!job_id || capture(argv, out, sizeof out) != 0) return -1;
  field(out, "JobState", state, state_len);
  field(out, "Reason", reason, reason_len);
  field(out, "ExitCode", code, sizeof code); /* "STATUS:SIGNAL" */
  if (exit_code) {
    int status = 0, sig = 0;
    sscanf(code, "%d:%d", &status, &sig);
    *exit_code = sig ? 128 + sig : status;
  }
  return state[0] ? 0 : -1;
}

int rigor_slurm_job_state(const char *job_id, char *state, size_t state_len, char *reason,
                          size_t reason_len) {
  return rigor_slurm_job_info(job_id, state, state_len, reason, reason_len, NULL);
}

bool rigor_slurm_job_ended(const char *state) {
  static const char *const going[] = {"PENDING",   "CONFIGURING",   "RUNNING",      "COMPLETING",
                                      "SUSPENDED", "REQUEUED",      "RESIZING",     "STAGE_OUT",
                                      "SIGNALING", "RESV_DEL_HOLD", "REQUEUE_HOLD", NULL};
  for (size_t i = 0; going[i]; i++)
    if (strncmp(state, going[i], strlen(going[i])) == 0) return false;
  return true;
}

/* Slurm's end states that are no fault of the run, and what they mean. */
static const struct {
  const char *state, *meaning;
} end_states[] = {
    {"TIMEOUT", "reached its time limit"},  {"NODE_FAIL", "lost a node (node failure)"},
    {"CANCELLED", "was cancelled"},         {"PREEMPTED", "was preempted"},
    {"DEADLINE", "reached its deadline"},   {"BOOT_FAIL", "could not boot a node"},
    {"OUT_OF_MEMORY", "ran out of memory"},
};

bool rigor_slurm_explain(json_t *where, rigor_run_status_t *status, char *reason,
                         size_t reason_len) {
  const char *job = json_string_value(json_object_get(where, "job_id"));
  if (!job) return false;
  char state[64], why[256];
  /* scancel and the time limit mark the job before they signal its steps; a short grace lets
   * slurmctld's view settle when the step died first. */
  for (int i = 0; i < 10; i++) {
    if (rigor_slurm_job_state(job, state, sizeof state, why, sizeof why) != 0) return false;
    for (size_t k = 0; k < sizeof end_states / sizeof *end_states; k++)
      if (strncmp(state, end_states[k].state, strlen(end_states[k].state)) == 0) {
        json_object_set_new(where, "state", json_string(end_states[k].state));
        char was[1024];
        snprintf(was, sizeof was, "%s", reason);
        snprintf(reason, reason_len, "Slurm job %s %s (%s%s%s)%s%s", job, end_states[k].meaning,
                 end_states[k].state, why[0] && strcmp(why, "None") ? ", " : "",
                 why[0] && strcmp(why, "None") ? why : "", was[0] ? "; " : "", was);
        *status = RIGOR_RUN_INTERRUPTED;
        return true;
      }
    usleep(200000);
  }
  return false;
}
