#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "wire.h"

typedef struct watch {
  rigor_sample_sink_fn sink;
  rigor_tick_fn tick;
  void *arg;
  rigor_run_outcome_t *o;
} watch_t;

/* Handles one message from the run's process. */
static void on_line(watch_t *w, const char *line) {
  json_error_t jerr;
  json_t *msg = json_loads(line, 0, &jerr);
  if (!json_is_object(msg)) {
    json_decref(msg);
    return;
  }
  switch (rigor_wire_kind(msg)) {
  case RIGOR_WIRE_SAMPLE:
    w->sink(w->arg, msg);
    break;
  case RIGOR_WIRE_ERROR:
    if (!w->o->reason[0])
      snprintf(w->o->reason, sizeof w->o->reason, "%s",
               json_string_value(json_object_get(msg, "message")));
    break;
  case RIGOR_WIRE_END:
    json_decref(w->o->end);
    w->o->end = json_incref(msg);
    break;
  case RIGOR_WIRE_WHERE:
    json_decref(w->o->slurm);
    w->o->slurm = json_incref(json_object_get(msg, "slurm"));
    if (json_is_null(w->o->slurm)) json_decref(w->o->slurm), w->o->slurm = NULL;
    break;
  case RIGOR_WIRE_OTHER:
    break;
  }
  json_decref(msg);
}

/* Splits complete lines out of buf and handles them; keeps the partial tail. */
static void handle_lines(watch_t *w, char *buf, size_t *len) {
  size_t start = 0;
  for (size_t i = 0; i < *len; i++)
    if (buf[i] == '\n') {
      buf[i] = '\0';
      on_line(w, buf + start);
      start = i + 1;
    }
  memmove(buf, buf + start, *len - start);
  *len -= start;
}

static bool grow_buffer(char **buf, size_t *cap, size_t len) {
  if (len + 65536 <= *cap) return true;
  char *bigger = realloc(*buf, *cap * 2);
  if (!bigger) return false;
  *buf = bigger;
  *cap *= 2;
  return true;
}

/* Waits up to `ms` for the process to exit; true when it did. */
static bool reaped_within(pid_t pid, int *wstatus, int ms) {
  for (int waited = 0;; waited += 10) {
    pid_t r = waitpid(pid, wstatus, WNOHANG);
    if (r == pid || (r < 0 && errno == ECHILD)) return true;
    if (waited >= ms) return false;
    usleep(10000);
  }
}

/* The parent's clock bounds the run on every turn: while it writes, after it closed its pipe,
 * and while it will not die. */
static void pump(watch_t *w, int fd, pid_t pid, double timeout_s, int *wstatus, bool *timed_out) {
  size_t len = 0, cap = 1 << 20;
  char *buf = malloc(cap);
  uint64_t deadline = rigor_now_ns() + (uint64_t)(timeout_s * 1e9);
  bool exited = false, open = buf != NULL;
  *timed_out = false;
  while (open && !exited) {
    if (w->tick) w->tick(w->arg);
    uint64_t now = rigor_now_ns();
    if (now >= deadline) {
      *timed_out = true;
      break;
    }
    uint64_t left_ms = (deadline - now) / 1000000 + 1;
    struct pollfd pfd = {fd, POLLIN, 0};
    int pr = poll(&pfd, 1, left_ms < 100 ? (int)left_ms : 100);
    if (pr > 0) {
      if (!grow_buffer(&buf, &cap, len)) break;
      ssize_t n = read(fd, buf + len, cap - len - 1);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        open = false; /* EOF: the process may still be running, or hanging */
        break;
      }
      len += (size_t)n;
      handle_lines(w, buf, &len);
      continue;
    }
    if (pr < 0 && errno != EINTR) break;
    if (waitpid(pid, wstatus, WNOHANG) == pid) {
      exited = true;
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
      ssize_t n;
      while (grow_buffer(&buf, &cap, len) && (n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        handle_lines(w, buf, &len);
      }
    }
  }
  free(buf);
  /* After the pipe closed, the exit is still bounded by the deadline. */
  while (!exited && !*timed_out) {
    if (w->tick) w->tick(w->arg);
    if (reaped_within(pid, wstatus, 10)) {
      exited = true;
      break;
    }
    if (rigor_now_ns() >= deadline) *timed_out = true;
  }
  if (*timed_out && !exited) {
    kill(-pid, SIGTERM);
    exited = reaped_within(pid, wstatus, 2000);
    if (!exited) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
        ;
    }
  }
  /* Whatever the run left behind in its group goes too. */
  kill(-pid, SIGKILL);
}

static void classify(double timeout_s, bool at_deadline, int wstatus, bool timed_out, int stop,
                     rigor_run_outcome_t *o) {
  o->signal = 0;
  o->exit_code = -1;
  const char *end_status = o->end ? json_string_value(json_object_get(o->end, "status")) : NULL;
  const char *end_reason = o->end ? json_string_value(json_object_get(o->end, "reason")) : NULL;
  char plugin_msg[1200];
  snprintf(plugin_msg, sizeof plugin_msg, "%.1100s", end_reason ? end_reason : o->reason);
  if (WIFEXITED(wstatus)) o->exit_code = WEXITSTATUS(wstatus);
  if (timed_out && at_deadline) {
    o->status = RIGOR_RUN_INTERRUPTED;
    snprintf(o->reason, sizeof o->reason, "stopped at the experiment's deadline, %g s into the run",
             timeout_s);
  } else if (timed_out) {
    o->status = RIGOR_RUN_TIMEOUT;
    snprintf(o->reason, sizeof o->reason, "exceeded timing.timeout of %g s%s%s", timeout_s,
             plugin_msg[0] ? "; " : "", plugin_msg);
  } else if (stop && !end_status) {
    o->status = RIGOR_RUN_INTERRUPTED;
    snprintf(o->reason, sizeof o->reason, "rigor received %s", strsignal(stop));
  } else if (WIFSIGNALED(wstatus)) {
    o->signal = WTERMSIG(wstatus);
    o->status = stop ? RIGOR_RUN_INTERRUPTED : RIGOR_RUN_CRASHED;
    snprintf(o->reason, sizeof o->reason, "killed by signal %d (%s)%s%s", o->signal,
             strsignal(o->signal), plugin_msg[0] ? "; last error: " : "", plugin_msg);
  } else if (end_status) {
    o->status = rigor_run_status_parse(end_status);
    snprintf(o->reason, sizeof o->reason, "%s", plugin_msg);
  } else {
    o->status = RIGOR_RUN_FAILED;
    snprintf(o->reason, sizeof o->reason,
             "the run's process exited with code %d before reporting%s%s", o->exit_code,
             plugin_msg[0] ? "; last error: " : "", plugin_msg);
  }
}

void rigor_supervise(int fd, pid_t pid, double timeout_s, double deadline_s,
                     rigor_sample_sink_fn sink, rigor_tick_fn tick, void *arg,
                     int (*stop_signal)(void), rigor_run_outcome_t *o) {
  watch_t w = {sink, tick, arg, o};
  int wstatus = 0;
  bool timed_out = false;
  bool at_deadline = deadline_s > 0 && deadline_s < timeout_s;
  double limit = at_deadline ? deadline_s : timeout_s;
  pump(&w, fd, pid, limit, &wstatus, &timed_out);
  classify(limit, at_deadline, wstatus, timed_out, stop_signal ? stop_signal() : 0, o);
}
