#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "envpad.h"
#include "owned_dirs.h"
#include "rigor/plugin.h"

static void restore_signals(void) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGXFSZ, SIG_DFL);
}

pid_t rigor_spawn_fork(const rigor_child_args_t *args, int *read_fd) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(fds[0]);
    close(fds[1]);
    errno = e;
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

static char *substitute(const char *tmpl, const char *ranks) {
  const char *at = strstr(tmpl, "{ranks}");
  if (!at) return strdup(tmpl);
  size_t n = strlen(tmpl) - 7 + strlen(ranks) + 1;
  char *out = malloc(n);
  if (out) snprintf(out, n, "%.*s%s%s", (int)(at - tmpl), tmpl, ranks, at + 7);
  return out;
}

pid_t rigor_spawn_exec(const char *self, const json_t *spec, const json_t *launcher,
                       const json_t *ranks, const char *env_pad, rigor_spawn_t *sp, int *read_fd,
                       char *err, size_t errlen) {
  memset(sp, 0, sizeof *sp);
  sp->hold_fd = -1;
  char spec_path[PATH_MAX + 16], out_path[PATH_MAX + 16], fdtext[16];
  int spec_fd = -1;
  if (launcher) {
    /* A launcher may run the child elsewhere, so the spec and the FIFO live in a folder. */
    /* Named after rigor's pid, so that the next rigor removes it when a SIGKILL left it. */
    if (rigor_owned_dir_make("rigor-run", sp->dir, sizeof sp->dir) != 0) {
      snprintf(err, errlen, "cannot create a temporary folder: %s", strerror(errno));
      sp->dir[0] = '\0';
      return -1;
    }
    snprintf(spec_path, sizeof spec_path, "%s/spec.json", sp->dir);
    if (json_dump_file(spec, spec_path, JSON_COMPACT) != 0) {
      snprintf(err, errlen, "cannot write %s", spec_path);
      return -1;
    }
  } else {
    /* A child on this machine reads its spec from a memory file it inherits: nothing is left on
     * disk, whatever kills rigor. */
    spec_fd = memfd_create("rigor-run-spec", 0);
    if (spec_fd < 0 || json_dumpfd(spec, spec_fd, JSON_COMPACT) != 0 ||
        lseek(spec_fd, 0, SEEK_SET) != 0) {
      snprintf(err, errlen, "cannot write the run's spec: %s", strerror(errno));
      if (spec_fd >= 0) close(spec_fd);
      return -1;
    }
    snprintf(spec_path, sizeof spec_path, "/proc/self/fd/%d", spec_fd);
  }
  int fds[2] = {-1, -1};
  if (launcher) {
    snprintf(out_path, sizeof out_path, "%s/out.fifo", sp->dir);
    if (mkfifo(out_path, 0600) != 0) {
      snprintf(err, errlen, "cannot create a FIFO: %s", strerror(errno));
      return -1;
    }
    fds[0] = open(out_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    sp->hold_fd = open(out_path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fds[0] < 0 || sp->hold_fd < 0) {
      snprintf(err, errlen, "cannot open the FIFO: %s", strerror(errno));
      return -1;
    }
  } else if (pipe(fds) != 0) {
    snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
    close(spec_fd);
    return -1;
  } else {
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    snprintf(fdtext, sizeof fdtext, "%d", fds[1]);
  }

  char ranks_text[32];
  snprintf(ranks_text, sizeof ranks_text, "%lld",
           json_is_integer(ranks) ? (long long)json_integer_value(ranks) : 1LL);
  size_t nl = launcher ? json_array_size(launcher) : 0;
  char **argv = calloc(nl + 8, sizeof *argv);
  size_t ac = 0;
  for (size_t i = 0; i < nl; i++)
    argv[ac++] = substitute(json_string_value(json_array_get(launcher, i)), ranks_text);
  argv[ac++] = strdup(self);
  argv[ac++] = strdup("__child");
  argv[ac++] = strdup(spec_path);
  argv[ac++] = strdup(launcher ? "--out" : "--out-fd");
  argv[ac++] = strdup(launcher ? out_path : fdtext);
  if (launcher) argv[ac++] = strdup("--mpi");
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    restore_signals();
    if (env_pad) setenv(RIGOR_ENV_PAD_NAME, env_pad, 1);
    execvp(argv[0], argv);
    fprintf(stderr, "rigor: cannot execute %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  for (size_t i = 0; i < ac; i++)
    free(argv[i]);
  free(argv);
  if (!launcher) close(fds[1]);
  if (spec_fd >= 0) close(spec_fd);
  if (pid < 0) {
    snprintf(err, errlen, "cannot start the run's process: %s", strerror(errno));
    close(fds[0]);
    return -1;
  }
  setpgid(pid, pid);
  *read_fd = fds[0];
  return pid;
}

void rigor_spawn_cleanup(rigor_spawn_t *sp) {
  if (!sp->dir[0]) return; /* nothing was set up (a forked run) */
  if (sp->hold_fd >= 0) close(sp->hold_fd);
  sp->hold_fd = -1;
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/spec.json", sp->dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/out.fifo", sp->dir);
  unlink(path);
  rmdir(sp->dir);
  sp->dir[0] = '\0';
}
