#include "pto_vf_runner.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int vf_argv_parse(const char *text, char ***argv, char *err, size_t errlen) {
  json_error_t je;
  json_t *arr = json_loads(text, 0, &je);
  if (!arr || !json_is_array(arr) || json_array_size(arr) == 0) {
    snprintf(err, errlen,
             "runner: expected a non-empty JSON array of strings such as [\"./run.sh\", \"--x\"]"
             "%s%s",
             arr ? "" : ": ", arr ? "" : je.text);
    json_decref(arr);
    return -EINVAL;
  }
  size_t n = json_array_size(arr);
  char **out = calloc(n + 1, sizeof *out);
  if (!out) {
    json_decref(arr);
    return -ENOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    json_t *v = json_array_get(arr, i);
    if (!json_is_string(v) || (i == 0 && json_string_length(v) == 0)) {
      snprintf(err, errlen, "runner: element %zu is not a%s string", i, i == 0 ? " non-empty" : "");
      vf_argv_free(out);
      json_decref(arr);
      return -EINVAL;
    }
    out[i] = strdup(json_string_value(v));
    if (!out[i]) {
      vf_argv_free(out);
      json_decref(arr);
      return -ENOMEM;
    }
  }
  json_decref(arr);
  *argv = out;
  return 0;
}

void vf_argv_free(char **argv) {
  if (!argv) return;
  for (char **p = argv; *p; p++)
    free(*p);
  free(argv);
}

/* execvp's PATH search, done before fork so the child only calls async-signal-safe functions. */
static char *resolve(const char *prog) {
  if (strchr(prog, '/')) return strdup(prog);
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  while (*path) {
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : strlen(path);
    char *cand = malloc(n + strlen(prog) + 2);
    if (!cand) return NULL;
    snprintf(cand, n + strlen(prog) + 2, "%.*s/%s", (int)n, n ? path : ".", prog);
    if (access(cand, X_OK) == 0) return cand;
    free(cand);
    path += colon ? n + 1 : n;
  }
  return NULL;
}

static char **build_env(const char *trace_dir) {
  size_t n = 0;
  while (environ[n])
    n++;
  char **env = calloc(n + 2, sizeof *env);
  if (!env) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "PTO_VF_TRACE_DIR=", 17) != 0) env[k++] = environ[i];
  size_t len = strlen(trace_dir) + 18;
  char *var = malloc(len);
  if (!var) {
    free(env);
    return NULL;
  }
  snprintf(var, len, "PTO_VF_TRACE_DIR=%s", trace_dir);
  env[k] = var;
  return env;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Appends to a buffer of 2*keep bytes, keeping the last `keep` when it fills. */
static void keep_tail(char *buf, size_t *len, size_t keep, const char *data, size_t n) {
  if (n >= keep) {
    memcpy(buf, data + n - keep, keep);
    *len = keep;
    return;
  }
  if (*len + n > 2 * keep) {
    size_t drop = *len + n - keep;
    memmove(buf, buf + drop, *len - drop);
    *len -= drop;
  }
  memcpy(buf + *len, data, n);
  *len += n;
}

static void finish_tail(char *dst, size_t cap, const char *buf, size_t len) {
  size_t n = len < cap ? len : cap;
  memcpy(dst, buf + len - n, n);
  dst[n] = '\0';
}

static void child(int out_fd, int err_fd, const char *cwd, const char *path, char *const *argv,
                  char **env) {
  setpgid(0, 0);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  if (cwd && *cwd && chdir(cwd) != 0) _exit(126);
  execve(path, argv, env);
  _exit(127);
}

int vf_runner_exec(char *const *argv, const char *cwd, const char *trace_dir, double timeout_s,
                   vf_run_result_t *res, char *err, size_t errlen) {
  memset(res, 0, sizeof *res);
  char *path = resolve(argv[0]);
  if (!path) {
    snprintf(err, errlen, "runner: %s not found in PATH", argv[0]);
    return -ENOENT;
  }
  char **env = build_env(trace_dir ? trace_dir : "");
  char *out_buf = malloc(2 * VF_RUNNER_KEEP);
  char *err_buf = malloc(2 * VF_RUNNER_TAIL);
  res->output = malloc(VF_RUNNER_KEEP + 1);
  int pout[2] = {-1, -1}, perr[2] = {-1, -1};
  int rc = 0;
  if (!env || !out_buf || !err_buf || !res->output) {
    rc = -ENOMEM;
    goto done;
  }
  if (pipe2(pout, O_CLOEXEC) != 0 || pipe2(perr, O_CLOEXEC) != 0) {
    rc = -errno;
    snprintf(err, errlen, "runner: pipe: %s", strerror(errno));
    goto done;
  }
  double t0 = now_s();
  pid_t pid = fork();
  if (pid < 0) {
    rc = -errno;
    snprintf(err, errlen, "runner: fork: %s", strerror(errno));
    goto done;
  }
  if (pid == 0) child(pout[1], perr[1], cwd, path, argv, env);
  setpgid(pid, pid);
  close(pout[1]);
  close(perr[1]);
  pout[1] = perr[1] = -1;

  size_t out_len = 0, err_len = 0;
  struct pollfd fds[2] = {{pout[0], POLLIN, 0}, {perr[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    int wait_ms = -1;
    if (timeout_s > 0) {
      double left = timeout_s - (now_s() - t0);
      if (left <= 0) {
        res->timed_out = true;
        kill(-pid, SIGKILL);
        break;
      }
      wait_ms = (int)(left * 1000) + 1;
    }
    int n = poll(fds, 2, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char chunk[8192];
      ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
      /* read() never returns more than asked; saying so lets the compiler see the bounds. */
      size_t n_got = got > (ssize_t)sizeof chunk ? sizeof chunk : (size_t)got;
      if (got <= 0) {
        fds[i].fd = -1;
        open_fds--;
      } else if (i == 0) {
        keep_tail(out_buf, &out_len, VF_RUNNER_KEEP, chunk, n_got);
      } else {
        keep_tail(err_buf, &err_len, VF_RUNNER_TAIL, chunk, n_got);
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  res->wall_s = now_s() - t0;
  if (WIFEXITED(status)) {
    res->exit_code = WEXITSTATUS(status);
  } else {
    res->exit_code = -1;
    res->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  finish_tail(res->output, VF_RUNNER_KEEP, out_buf, out_len);
  res->output_len = strlen(res->output);
  finish_tail(res->stderr_tail, VF_RUNNER_TAIL, err_buf, err_len);

done:
  for (int i = 0; i < 2; i++) {
    if (pout[i] >= 0) close(pout[i]);
    if (perr[i] >= 0) close(perr[i]);
  }
  if (env) {
    size_t k = 0;
    while (env[k + 1])
      k++;
    free(env[k]);
  }
  free(env);
  free(out_buf);
  free(err_buf);
  free(path);
  if (rc) vf_run_result_free(res);
  return rc;
}

void vf_run_result_free(vf_run_result_t *res) {
  free(res->output);
  res->output = NULL;
  res->output_len = 0;
}
