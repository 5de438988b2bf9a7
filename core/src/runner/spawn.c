#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
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

/* The nodes a launcher's {nodes} names: those a pair screen gives this run (RIGOR_NODES), else
 * the allocation's; NULL outside one. */
static const char *launch_nodes(void) {
  const char *pair = getenv("RIGOR_NODES");
  return pair && *pair ? pair : getenv("SLURM_JOB_NODELIST");
}

/* One launcher argument with every {ranks} and {nodes} given its value; NULL when memory runs
 * out or {nodes} has none (*no_nodes then says so). */
static char *substitute(const char *tmpl, const char *ranks, bool *no_nodes) {
  size_t cap = strlen(tmpl) + 1, len = 0;
  char *out = malloc(cap);
  for (const char *p = tmpl; out && *p;) {
    const char *value = NULL;
    size_t skip = 1;
    if (strncmp(p, "{ranks}", 7) == 0) value = ranks, skip = 7;
    if (strncmp(p, "{nodes}", 7) == 0) {
      if (!(value = launch_nodes())) {
        *no_nodes = true;
        free(out);
        return NULL;
      }
      skip = 7;
    }
    size_t n = value ? strlen(value) : 1;
    if (len + n + 1 > cap) {
      char *grown = realloc(out, cap = (len + n + 1) * 2);
      if (!grown) free(out);
      out = grown;
      if (!out) break;
    }
    memcpy(out + len, value ? value : p, n);
    len += n;
    p += skip;
  }
  if (out) out[len] = '\0';
  return out;
}

/* The spec in a private folder under TMPDIR (a launcher may run the child elsewhere). On failure
 * nothing is left: no folder, no file. */
static int write_spec_file(const json_t *spec, rigor_spawn_t *sp, char *path, size_t len, char *err,
                           size_t errlen) {
  /* Named after rigor's pid, so that the next rigor removes it when a SIGKILL left it. */
  if (rigor_owned_dir_make("rigor-run", sp->dir, sizeof sp->dir) != 0) {
    snprintf(err, errlen, "cannot create a temporary folder: %s", strerror(errno));
    goto fail_folder;
  }
  snprintf(path, len, "%s/spec.json", sp->dir);
  if (json_dump_file(spec, path, JSON_COMPACT) != 0) {
    snprintf(err, errlen, "cannot write %s", path);
    goto fail_file;
  }
  return 0;

fail_file:
  unlink(path);
  rmdir(sp->dir);
fail_folder:
  sp->dir[0] = '\0';
  return -1;
}

/* The spec in a memory file the child inherits: nothing is left on disk, whatever kills rigor. */
static int write_spec_memfd(const json_t *spec, int *spec_fd, char *path, size_t len, char *err,
                            size_t errlen) {
  *spec_fd = memfd_create("rigor-run-spec", 0);
  if (*spec_fd < 0) goto fail_create;
  if (json_dumpfd(spec, *spec_fd, JSON_COMPACT) != 0 || lseek(*spec_fd, 0, SEEK_SET) != 0)
    goto fail_write;
  snprintf(path, len, "/proc/self/fd/%d", *spec_fd);
  return 0;

fail_write:;
  int e = errno;
  close(*spec_fd);
  *spec_fd = -1;
  errno = e;
fail_create:
  snprintf(err, errlen, "cannot write the run's spec: %s", strerror(errno));
  return -1;
}

/* A FIFO beside the spec that the child opens by name; we hold a writer of our own so that our
 * reads never see a premature end of file. On failure neither end stays open. */
static int open_fifo(rigor_spawn_t *sp, int *read_fd, char *path, size_t len, char *err,
                     size_t errlen) {
  snprintf(path, len, "%s/out.fifo", sp->dir);
  if (mkfifo(path, 0600) != 0) {
    snprintf(err, errlen, "cannot create a FIFO: %s", strerror(errno));
    return -1;
  }
  *read_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (*read_fd < 0) goto fail_read;
  sp->hold_fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (sp->hold_fd < 0) goto fail_hold;
  return 0;

fail_hold:;
  int e = errno;
  close(*read_fd);
  *read_fd = -1;
  errno = e;
fail_read:
  snprintf(err, errlen, "cannot open the FIFO: %s", strerror(errno));
  unlink(path);
  return -1;
}

static void free_argv(char **argv) {
  for (size_t i = 0; argv[i]; i++)
    free(argv[i]);
  free(argv);
}

/* `launcher... self __child SPEC --out(-fd) OUT [--mpi]`, NULL-terminated, or NULL when memory
 * runs out. */
static char **child_argv(const char *self, const json_t *launcher, const char *ranks,
                         const char *spec_path, const char *out, bool *no_nodes) {
  size_t nl = launcher ? json_array_size(launcher) : 0;
  char **argv = calloc(nl + 8, sizeof *argv);
  if (!argv) return NULL;
  size_t ac = 0;
  for (size_t i = 0; i < nl; i++)
    argv[ac++] = substitute(json_string_value(json_array_get(launcher, i)), ranks, no_nodes);
  const char *const tail[] = {
      self, "__child", spec_path, launcher ? "--out" : "--out-fd", out, launcher ? "--mpi" : NULL};
  for (size_t i = 0; i < sizeof tail / sizeof *tail && tail[i]; i++)
    argv[ac++] = strdup(tail[i]);
  bool whole = true;
  for (size_t i = 0; i < ac; i++)
    whole = whole && argv[i];
  if (whole) return argv;
  for (size_t i = 0; i < ac; i++)
    free(argv[i]);
  free(argv);
  return NULL;
}

pid_t rigor_spawn_exec(const char *self, const json_t *spec, const json_t *launcher,
                       const json_t *ranks, const char *env_pad, rigor_spawn_t *sp, int *read_fd,
                       char *err, size_t errlen) {
  memset(sp, 0, sizeof *sp);
  sp->hold_fd = -1;
  char spec_path[PATH_MAX + 16], out_path[PATH_MAX + 16], ranks_text[32];
  int spec_fd = -1, fds[2] = {-1, -1};
  char **argv = NULL;

  if (launcher ? write_spec_file(spec, sp, spec_path, sizeof spec_path, err, errlen)
               : write_spec_memfd(spec, &spec_fd, spec_path, sizeof spec_path, err, errlen))
    goto fail_spec;
  if (launcher) {
    if (open_fifo(sp, &fds[0], out_path, sizeof out_path, err, errlen) != 0) goto fail_channel;
  } else {
    if (pipe(fds) != 0) {
      snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
      goto fail_channel;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    snprintf(out_path, sizeof out_path, "%d", fds[1]);
  }
  snprintf(ranks_text, sizeof ranks_text, "%lld",
           json_is_integer(ranks) ? (long long)json_integer_value(ranks) : 1LL);
  bool no_nodes = false;
  argv = child_argv(self, launcher, ranks_text, spec_path, out_path, &no_nodes);
  if (!argv) {
    snprintf(err, errlen, "%s",
             no_nodes ? "the launcher names {nodes}, and this is not inside a Slurm allocation "
                        "(SLURM_JOB_NODELIST is unset): run it under salloc or sbatch, or in a "
                        "pair screen"
                      : "cannot start the run's process: out of memory");
    goto fail_argv;
  }
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
  if (pid < 0) {
    snprintf(err, errlen, "cannot start the run's process: %s", strerror(errno));
    goto fail_fork;
  }
  setpgid(pid, pid);
  free_argv(argv);
  if (fds[1] >= 0) close(fds[1]); /* the child's end of the pipe */
  if (spec_fd >= 0) close(spec_fd);
  *read_fd = fds[0];
  return pid;

fail_fork:
  free_argv(argv);
fail_argv:
  close(fds[0]);
  if (fds[1] >= 0) close(fds[1]);
fail_channel:
  if (spec_fd >= 0) close(spec_fd);
  rigor_spawn_cleanup(sp); /* the hold fd, the spec file and the FIFO, the folder */
fail_spec:
  return -1;
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
