#include "exec_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STACK_SIZE (256u << 10)

int exec_sink_open(exec_sink_t *s, size_t keep) {
  memset(s, 0, sizeof *s);
  s->keep = keep;
  s->buf = malloc(2 * keep + 1);
  if (!s->buf) return RIGOR_ENOMEM;
  s->buf[0] = '\0';
  return 0;
}

void exec_sink_close(exec_sink_t *s) {
  free(s->buf);
  memset(s, 0, sizeof *s);
}

static void sink_reset(exec_sink_t *s) {
  if (!s) return;
  s->len = 0;
  s->cut = false;
}

/* One read into the sink, dropping the oldest output first when less than `keep` is free.
 * Returns false at end of file or on error. */
static bool sink_read(int fd, exec_sink_t *s) {
  if (s->len > s->keep) {
    memmove(s->buf, s->buf + s->len - s->keep, s->keep);
    s->len = s->keep;
    s->cut = true;
  }
  ssize_t n = read(fd, s->buf + s->len, 2 * s->keep - s->len);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;
  s->len += (size_t)n;
  return true;
}

int exec_spawner_open(exec_spawner_t *sp) {
  memset(sp, 0, sizeof *sp);
  sp->devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (sp->devnull < 0) return -errno;
  void *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    int e = errno;
    close(sp->devnull);
    memset(sp, 0, sizeof *sp);
    return -e;
  }
  sp->stack = stack;
  sp->stack_size = STACK_SIZE;
  return 0;
}

void exec_spawner_close(exec_spawner_t *sp) {
  if (!sp->stack) return; /* never opened */
  munmap(sp->stack, sp->stack_size);
  close(sp->devnull);
  memset(sp, 0, sizeof *sp);
}

typedef struct child_args {
  const exec_cmd_t *c;
  int out_fd, err_fd, devnull;
  pid_t parent;
  int err_no; /* written by the child before it exits, read by the parent after */
  const char *step;
} child_args_t;

/* fd onto target, keeping it open across execve. */
static int move_to(int fd, int target) {
  return fd == target ? fcntl(fd, F_SETFD, 0) : dup2(fd, target);
}

/* Runs in the new process, on its own stack, while the parent waits (CLONE_VFORK) in memory it
 * shares (CLONE_VM): only system calls until execve. */
static int child_main(void *arg) {
  child_args_t *a = arg;
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &dfl, NULL);
  setpgid(0, 0);
  /* If the run's process dies (a run timeout), the program goes with it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != a->parent) _exit(127);
  const exec_cmd_t *c = a->c;
  /* The parent waits (CLONE_VFORK) until execve, so nothing here may block: a FIFO without a
   * writer would hold both before the timeout starts. Opened without waiting, then read as
   * usual; a program that reads before a writer comes sees end of file. */
  int in = c->stdin_path ? open(c->stdin_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : a->devnull;
  a->step = "open stdin";
  if (in < 0 || (c->stdin_path && fcntl(in, F_SETFL, fcntl(in, F_GETFL) & ~O_NONBLOCK) < 0) ||
      move_to(in, STDIN_FILENO) < 0)
    goto failed;
  a->step = "redirect output";
  if (move_to(a->out_fd, STDOUT_FILENO) < 0 || move_to(a->err_fd, STDERR_FILENO) < 0) goto failed;
  a->step = "chdir";
  if (c->cwd && chdir(c->cwd) != 0) goto failed;
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  a->step = "execve";
  execve(c->path, c->argv, c->envp);
failed:
  a->err_no = errno ? errno : EINVAL;
  _exit(127);
}

/* A descriptor that polls readable when the process exits; -1 where the kernel (or a tool such
 * as valgrind) has none, and the wait falls back to polling waitpid. */
static int pidfd_of(pid_t pid) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  (void)pid;
  return -1;
#endif
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* Reads what is there now, without waiting: after the program exited, a grandchild may still
 * hold the pipe open. */
static void drain(int *fd, exec_sink_t *s) {
  struct pollfd p = {*fd, POLLIN, 0};
  while (*fd >= 0 && poll(&p, 1, 0) > 0)
    if (!sink_read(*fd, s)) close_fd(fd);
}

int exec_spawn(exec_spawner_t *sp, const exec_cmd_t *c, double timeout_s, exec_sink_t *out,
               exec_sink_t *err, exec_result_t *res) {
  memset(res, 0, sizeof *res);
  sink_reset(out);
  sink_reset(err);
  int outp[2] = {-1, -1}, errp[2] = {-1, -1};
  if ((out && pipe2(outp, O_CLOEXEC) != 0) || (err && pipe2(errp, O_CLOEXEC) != 0)) {
    int e = errno;
    for (int i = 0; i < 2; i++)
      close_fd(&outp[i]), close_fd(&errp[i]);
    return -e;
  }
  child_args_t a = {.c = c,
                    .out_fd = out ? outp[1] : sp->devnull,
                    .err_fd = err ? errp[1] : sp->devnull,
                    .devnull = sp->devnull,
                    .parent = getpid()};
  /* No handler of this process may run in the child before it resets them. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  uint64_t t0 = now_ns();
  pid_t pid =
      clone(child_main, (char *)sp->stack + sp->stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
  int clone_errno = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  close_fd(&outp[1]);
  close_fd(&errp[1]);
  if (pid < 0) {
    close_fd(&outp[0]);
    close_fd(&errp[0]);
    return -clone_errno;
  }
  int status = 0;
  bool reaped = false;
  if (a.err_no) {
    res->start_errno = a.err_no;
    res->start_step = a.step;
  } else {
    int pidfd = pidfd_of(pid);
    struct pollfd fds[3] = {{pidfd, POLLIN, 0}, {outp[0], POLLIN, 0}, {errp[0], POLLIN, 0}};
    exec_sink_t *sinks[3] = {NULL, out, err};
    for (bool exited = false; !exited;) {
      int wait_ms = -1;
      if (timeout_s > 0) {
        double left = timeout_s - (double)(now_ns() - t0) * 1e-9;
        if (left <= 0) {
          res->timed_out = true;
          kill(-pid, SIGKILL);
          break;
        }
        wait_ms = (int)ceil(left * 1e3);
      }
      if (pidfd < 0 && (wait_ms < 0 || wait_ms > 1)) wait_ms = 1; /* no pidfd: poll the child */
      if (poll(fds, 3, wait_ms) < 0) {
        if (errno == EINTR) continue; /* revents are stale: poll again */
        kill(-pid, SIGKILL);
        break;
      }
      for (int i = 1; i < 3; i++)
        if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
            !sink_read(fds[i].fd, sinks[i]))
          fds[i].fd = -1;
      if (pidfd >= 0)
        exited = (fds[0].revents & POLLIN) != 0;
      else
        exited = reaped = waitpid(pid, &status, WNOHANG) == pid;
    }
    if (!res->timed_out) {
      drain(&outp[0], out);
      drain(&errp[0], err);
    }
    if (pidfd >= 0) close(pidfd);
  }
  while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  res->wall_s = (double)(now_ns() - t0) * 1e-9;
  res->wait_status = status;
  close_fd(&outp[0]);
  close_fd(&errp[0]);
  return 0;
}

void exec_result_describe(const exec_result_t *r, double timeout_s, char *out, size_t cap) {
  if (r->start_errno)
    snprintf(out, cap, "could not start (%s): %s", r->start_step ? r->start_step : "?",
             strerror(r->start_errno));
  else if (r->timed_out)
    snprintf(out, cap, "timed out after %g s (its process group was killed)", timeout_s);
  else if (WIFEXITED(r->wait_status))
    snprintf(out, cap, "exit status %d", WEXITSTATUS(r->wait_status));
  else if (WIFSIGNALED(r->wait_status))
    snprintf(out, cap, "killed by signal %d (%s)%s", WTERMSIG(r->wait_status),
             strsignal(WTERMSIG(r->wait_status)), WCOREDUMP(r->wait_status) ? ", core dumped" : "");
  else
    snprintf(out, cap, "wait status 0x%x", (unsigned)r->wait_status);
}
