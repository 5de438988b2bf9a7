#include "slurm_submit.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slurm.h"

void rigor_slurm_request_defaults(rigor_slurm_request_t *req, const json_t *executor,
                                  char scratch[3][64]) {
  const json_t *s = json_object_get(executor, "slurm");
  if (!s) return;
  const json_t *v;
  if (!req->nodes && json_is_integer(v = json_object_get(s, "nodes"))) {
    snprintf(scratch[0], 64, "%lld", (long long)json_integer_value(v));
    req->nodes = scratch[0];
  }
  if (!req->time && json_is_number(v = json_object_get(s, "time_s"))) {
    /* Slurm counts whole minutes: the limit rounds up. */
    long long minutes = (long long)((json_number_value(v) + 59) / 60);
    snprintf(scratch[1], 64, "%lld:%02lld:00", minutes / 60, minutes % 60);
    req->time = scratch[1];
  }
  if (!req->partition) req->partition = json_string_value(json_object_get(s, "partition"));
  if (!req->account) req->account = json_string_value(json_object_get(s, "account"));
}

/* One argument quoted for sh. */
static void append_quoted(char **buf, size_t *len, const char *arg) {
  size_t need = *len + strlen(arg) * 4 + 4;
  char *grown = realloc(*buf, need);
  if (!grown) return;
  *buf = grown;
  char *p = *buf + *len;
  *p++ = ' ';
  *p++ = '\'';
  for (const char *a = arg; *a; a++) {
    if (*a == '\'') {
      memcpy(p, "'\\''", 4);
      p += 4;
    } else {
      *p++ = *a;
    }
  }
  *p++ = '\'';
  *p = '\0';
  *len = (size_t)(p - *buf);
}

static bool is_count(const char *text) {
  if (!*text) return false;
  for (const char *p = text; *p; p++)
    if (*p < '0' || *p > '9') return false;
  return true;
}

int rigor_slurm_run_job(const rigor_slurm_request_t *req, const char *name, const char *log,
                        char *const *argv, char *err, size_t errlen) {
  size_t len = 4;
  char *script = strdup("exec");
  for (size_t i = 0; script && argv[i]; i++)
    append_quoted(&script, &len, argv[i]);
  char opt[6][1024];
  const char *args[16];
  size_t n = 0;
  args[n++] = "sbatch";
  args[n++] = "--parsable";
  /* Whole nodes: a benchmark shares its node with no other job, and its steps get every CPU. */
  args[n++] = "--exclusive";
  snprintf(opt[0], sizeof opt[0], "--job-name=%s", name);
  args[n++] = opt[0];
  snprintf(opt[1], sizeof opt[1], "--output=%s", log);
  args[n++] = opt[1];
  if (req->nodes) {
    snprintf(opt[2], sizeof opt[2], "--%s=%s", is_count(req->nodes) ? "nodes" : "nodelist",
             req->nodes);
    args[n++] = opt[2];
  }
  if (req->partition) {
    snprintf(opt[3], sizeof opt[3], "--partition=%s", req->partition);
    args[n++] = opt[3];
  }
  if (req->time) {
    snprintf(opt[4], sizeof opt[4], "--time=%s", req->time);
    args[n++] = opt[4];
  }
  if (req->account) {
    snprintf(opt[5], sizeof opt[5], "--account=%s", req->account);
    args[n++] = opt[5];
  }
  args[n++] = "--wrap";
  args[n++] = script;
  args[n] = NULL;
  if (!script) return snprintf(err, errlen, "out of memory"), -1;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    free(script);
    return snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno)), -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    execvp(args[0], (char *const *)args);
    fprintf(stderr, "rigor: cannot execute sbatch: %s\n", strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  free(script);
  if (pid < 0) {
    close(fds[0]);
    return snprintf(err, errlen, "cannot start sbatch: %s", strerror(errno)), -1;
  }
  /* --parsable prints the job id at submission. */
  char id[256] = "";
  size_t got = 0;
  for (;;) {
    ssize_t r = read(fds[0], id + got, sizeof id - 1 - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
    id[got] = '\0';
    if (strchr(id, '\n') || got == sizeof id - 1) break;
  }
  id[strcspn(id, ";\n")] = '\0';
  if (id[0]) {
    fprintf(stderr, "rigor: submitted Slurm job %s; waiting for it to end (its log: ", id);
    for (const char *p = log; *p; p++)
      if (p[0] == '%' && p[1] == 'j')
        fputs(id, stderr), p++;
      else
        fputc(*p, stderr);
    fprintf(stderr, ")\n");
  }
  char drain[256];
  while (read(fds[0], drain, sizeof drain) > 0)
    ;
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return snprintf(err, errlen, "lost sbatch: %s", strerror(errno)), -1;
  if (!id[0] || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    snprintf(err, errlen, "sbatch could not submit the job (exit %d; see its message above)",
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return -1;
  }
  /* Waiting here rather than with sbatch --wait, whose polls grow to half a minute apart: the
   * job's end is seen within a second. */
  char state[64] = "", reason[256];
  int code = -1, lost = 0;
  for (;;) {
    if (rigor_slurm_job_info(id, state, sizeof state, reason, sizeof reason, &code) != 0) {
      if (++lost == 30) {
        snprintf(err, errlen, "Slurm no longer knows job %s (scontrol show job)", id);
        return -1;
      }
    } else if (lost = 0, rigor_slurm_job_ended(state)) {
      break;
    }
    usleep(500000);
  }
  if (strcmp(state, "COMPLETED") != 0 && strcmp(state, "FAILED") != 0)
    fprintf(stderr, "rigor: Slurm job %s ended %s%s%s\n", id, state,
            reason[0] && strcmp(reason, "None") ? ": " : "",
            reason[0] && strcmp(reason, "None") ? reason : "");
  return code >= 0 ? code : 1;
}

static bool named(const char *arg, const char *const *names, bool *inline_value) {
  for (size_t i = 0; names && names[i]; i++) {
    size_t n = strlen(names[i]);
    if (strncmp(arg, names[i], n) != 0) continue;
    if (arg[n] == '\0') return *inline_value = false, true;
    if (arg[n] == '=' && names[i][1] == '-') return *inline_value = true, true;
  }
  return false;
}

const char **rigor_args_without(int argc, char **argv, const char *const *drop_value,
                                const char *const *drop_flag) {
  const char **out = calloc((size_t)argc + 1, sizeof *out);
  if (!out) return NULL;
  size_t n = 0;
  bool positional = false;
  for (int i = 1; i < argc; i++) {
    bool inline_value = false;
    if (!positional && strcmp(argv[i], "--") == 0) positional = true;
    if (!positional && named(argv[i], drop_value, &inline_value)) {
      if (!inline_value) i++;
      continue;
    }
    if (!positional && named(argv[i], drop_flag, &inline_value)) continue;
    out[n++] = argv[i];
  }
  out[n] = NULL;
  return out;
}
