#include "checks.h"
#include "rigor/plugin.h"

#include "identity.h"
#include "sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LOAD_WARN       1.0
#define BUSY_SHARE_WARN 0.10
#define BUSY_LISTED     5
/* CPU time comes in clock ticks: a window of fewer than this many cannot resolve a 10% share. */
#define BUSY_MIN_TICKS 10.0

static const char BUSY_WHY[] =
    "A process that keeps a CPU busy steals cycles, cache and memory bandwidth from the "
    "benchmark; on a shared core it produces long tails rather than a shifted median (seed 000: "
    "median +10%, P95 x9.9).";
static const char SWAP_WHY[] = "Swapping turns memory accesses into disk I/O: a run that swaps "
                               "measures the disk, and it also means the machine is short of "
                               "memory.";

static void add(json_t *list, const char *check, const char *status, const char *detail,
                const char *why, const char *advice) {
  json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:s?}", "check", check, "status",
                                        status, "detail", detail, "why", why, "advice",
                                        strcmp(status, "warn") == 0 ? advice : NULL));
}

static void cpu_list_text(const json_t *cpus, char *out, size_t cap) {
  size_t used = 0, i;
  const json_t *c;
  out[0] = '\0';
  json_array_foreach(cpus, i, c) {
    int w = snprintf(out + used, cap - used, "%s%lld", i ? "," : "", json_integer_value(c));
    if (w < 0 || (size_t)w >= cap - used) break;
    used += (size_t)w;
  }
}

static void check_governor(json_t *list, const json_t *freq) {
  const char *why = "A governor other than 'performance' lowers the clock when a CPU idles and "
                    "raises it under load, so first runs and short runs measure the ramp instead "
                    "of the code (seed 000 caught a first run with its GPU at 135 MHz against 1530 "
                    "MHz later; CPUs "
                    "ramp the same way).";
  const json_t *groups = json_object_get(freq, "governors");
  if (json_object_size(groups) == 0) {
    add(list, "governor", "unavailable", "cpufreq is not exposed on this machine", why, NULL);
    return;
  }
  char detail[1024] = "", cpus[512];
  size_t used = 0;
  const char *name;
  const json_t *members;
  json_object_foreach((json_t *)groups, name, members) {
    if (strcmp(name, "performance") == 0) continue;
    cpu_list_text(members, cpus, sizeof cpus);
    int w = snprintf(detail + used, sizeof detail - used, "%sgovernor '%s' on CPUs %s",
                     used ? "; " : "", name, cpus);
    if (w > 0 && (size_t)w < sizeof detail - used) used += (size_t)w;
  }
  if (used == 0) {
    add(list, "governor", "ok", "every CPU uses the 'performance' governor", why, NULL);
    return;
  }
  add(list, "governor", "warn", detail, why,
      "Set the performance governor for the session: sudo cpupower frequency-set -g performance "
      "(and restore the previous governor afterwards).");
}

static void check_boost(json_t *list, const json_t *freq) {
  const char *why = "Turbo/boost makes the clock depend on temperature, power and how many cores "
                    "are busy, so the same code runs at different clocks from run to run.";
  const json_t *boost = json_object_get(freq, "boost");
  const char *source = json_string_value(json_object_get(freq, "boost_source"));
  if (!json_is_boolean(boost)) {
    add(list, "boost", "unavailable", "neither cpufreq/boost nor intel_pstate/no_turbo is exposed",
        why, NULL);
    return;
  }
  char detail[256];
  snprintf(detail, sizeof detail, "boost is %s (%s)", json_is_true(boost) ? "on" : "off", source);
  bool pstate = source && strstr(source, "intel_pstate");
  add(list, "boost", json_is_true(boost) ? "warn" : "ok", detail, why,
      pstate ? "Disable turbo while measuring: echo 1 | sudo tee "
               "/sys/devices/system/cpu/intel_pstate/no_turbo"
             : "Disable boost while measuring: echo 0 | sudo tee "
               "/sys/devices/system/cpu/cpufreq/boost");
}

static void check_load(json_t *list, const char *root) {
  const char *why = "Other runnable work competes for the CPUs: in seed 000 a busy loop on the "
                    "benchmark's core pushed the 1 MiB P95 from 59 us to 584 us and the CV to "
                    "144%.";
  char buf[256];
  if (rigor_sysfs_read_line(root, "/proc/loadavg", buf, sizeof buf) != 0) {
    add(list, "load", "unavailable", "/proc/loadavg cannot be read", why, NULL);
    return;
  }
  double load1 = atof(buf);
  char detail[256];
  snprintf(detail, sizeof detail, "1-minute load average %.2f (warning at %.1f)", load1, LOAD_WARN);
  add(list, "load", load1 >= LOAD_WARN ? "warn" : "ok", detail, why,
      "Wait for the machine to become idle, stop other jobs, or pin the benchmark away from them "
      "with environment.affinity.");
}

typedef struct proc_ticks {
  int pid;
  unsigned long long ticks;
  char comm[64];
} proc_ticks_t;

/* One line of /proc/PID/stat, read relative to the open /proc: no path building, no stdio. */
static int read_stat(int proc_fd, int pid, char *line, size_t cap) {
  char rel[32];
  snprintf(rel, sizeof rel, "%d/stat", pid);
  int fd = openat(proc_fd, rel, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, line, cap - 1);
  close(fd);
  if (n <= 0) return -1;
  line[n] = '\0';
  return 0;
}

static int proc_snapshot(const char *root, proc_ticks_t **out) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/proc", root);
  *out = NULL;
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0, cap = 0;
  struct dirent *e;
  int self = (int)getpid();
  while ((e = readdir(d))) {
    if (!isdigit((unsigned char)e->d_name[0])) continue;
    int pid = atoi(e->d_name);
    if (pid == self) continue;
    char line[1024];
    if (read_stat(dirfd(d), pid, line, sizeof line) != 0) continue;
    char *open = strchr(line, '('), *close_paren = strrchr(line, ')');
    if (!open || !close_paren || close_paren < open) continue;
    unsigned long long utime = 0, stime = 0;
    if (sscanf(close_paren + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
               &stime) != 2)
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      proc_ticks_t *grown = realloc(*out, (size_t)cap * sizeof *grown);
      if (!grown) break;
      *out = grown;
    }
    proc_ticks_t *p = &(*out)[n++];
    p->pid = pid;
    p->ticks = utime + stime;
    snprintf(p->comm, sizeof p->comm, "%.*s", (int)(close_paren - open - 1), open + 1);
  }
  closedir(d);
  return n;
}

static int busy_cmp(const void *a, const void *b) {
  const proc_ticks_t *x = a, *y = b;
  return (x->ticks < y->ticks) - (x->ticks > y->ticks);
}

/* Processes that used more than BUSY_SHARE_WARN of a CPU between the two snapshots. */
static void check_busy(json_t *list, const proc_ticks_t *before, int n_before,
                       const proc_ticks_t *after, int n_after, double window_s) {
  const char *why = BUSY_WHY;
  if (n_before < 0 || n_after < 0) {
    add(list, "busy_processes", "unavailable", "/proc cannot be read", why, NULL);
    return;
  }
  double hz = (double)sysconf(_SC_CLK_TCK);
  if (window_s * hz < BUSY_MIN_TICKS) {
    char detail[160];
    snprintf(detail, sizeof detail,
             "the window lasted %.3f s, too short to attribute CPU time counted in ticks of "
             "%.0f ms (it needs %.2f s)",
             window_s, 1e3 / hz, BUSY_MIN_TICKS / hz);
    add(list, "busy_processes", "unavailable", detail, why, NULL);
    return;
  }
  proc_ticks_t *busy = calloc(n_after ? (size_t)n_after : 1, sizeof *busy);
  if (!busy) return;
  int n_busy = 0;
  for (int i = 0; i < n_after; i++) {
    for (int j = 0; j < n_before; j++) {
      if (before[j].pid != after[i].pid) continue;
      unsigned long long d = after[i].ticks - before[j].ticks;
      if (after[i].ticks >= before[j].ticks && (double)d / hz > BUSY_SHARE_WARN * window_s) {
        busy[n_busy] = after[i];
        busy[n_busy++].ticks = d;
      }
      break;
    }
  }
  qsort(busy, (size_t)n_busy, sizeof *busy, busy_cmp);
  char detail[1024];
  size_t used = 0;
  if (n_busy == 0) {
    snprintf(detail, sizeof detail, "no other process used more than %.0f%% of a CPU over %.2f s",
             100 * BUSY_SHARE_WARN, window_s);
  }
  for (int i = 0; i < n_busy && i < BUSY_LISTED; i++) {
    int w = snprintf(detail + used, sizeof detail - used, "%spid %d (%s) %.0f%% CPU", i ? ", " : "",
                     busy[i].pid, busy[i].comm, 100.0 * (double)busy[i].ticks / hz / window_s);
    if (w > 0 && (size_t)w < sizeof detail - used) used += (size_t)w;
  }
  if (n_busy > BUSY_LISTED && used < sizeof detail)
    snprintf(detail + used, sizeof detail - used, " and %d more", n_busy - BUSY_LISTED);
  add(list, "busy_processes", n_busy ? "warn" : "ok", detail, why,
      "Stop or pause these processes, or bind the benchmark to CPUs they do not use "
      "(environment.affinity) and keep them off those CPUs.");
  /* Every busy process, for readers that want more than the few the detail names. */
  json_t *all = json_array();
  for (int i = 0; i < n_busy; i++)
    json_array_append_new(all,
                          json_pack("{s:i, s:s, s:f}", "pid", busy[i].pid, "name", busy[i].comm,
                                    "cpu_share", (double)busy[i].ticks / hz / window_s));
  json_object_set_new(json_array_get(list, json_array_size(list) - 1), "processes", all);
  free(busy);
}

static void check_aslr(json_t *list, const char *root) {
  const char *why = "Address-space layout randomisation moves stack, heap and library addresses "
                    "from run to run; layout and alignment alone can shift results by several "
                    "percent (Mytkowicz et al., 'Producing wrong data without doing anything "
                    "obviously wrong').";
  char buf[64];
  if (rigor_sysfs_read_line(root, "/proc/sys/kernel/randomize_va_space", buf, sizeof buf) != 0) {
    add(list, "aslr", "unavailable", "/proc/sys/kernel/randomize_va_space cannot be read", why,
        NULL);
    return;
  }
  int level = atoi(buf);
  char detail[128];
  snprintf(detail, sizeof detail, "randomize_va_space = %d (%s)", level, level == 0 ? "off" : "on");
  add(list, "aslr", level ? "warn" : "ok", detail, why,
      "Either keep it and average over layouts (many runs, each a fresh process, with "
      "environment.randomize_env: true), or run without it: setarch -R rigor run ... (or echo 0 "
      "| sudo tee /proc/sys/kernel/randomize_va_space, restoring it afterwards).");
}

static int read_swaps(const char *root, unsigned long long *pages) {
  char path[4096], line[256];
  snprintf(path, sizeof path, "%s/proc/vmstat", root);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int found = 0;
  unsigned long long v;
  *pages = 0;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "pswpin %llu", &v) == 1 || sscanf(line, "pswpout %llu", &v) == 1) {
      *pages += v;
      found++;
    }
  }
  fclose(f);
  return found == 2 ? 0 : -1;
}

static void check_swap(json_t *list, int rc_before, unsigned long long before, int rc_after,
                       unsigned long long after, double window_s) {
  const char *why = SWAP_WHY;
  if (rc_before != 0 || rc_after != 0) {
    add(list, "swap", "unavailable", "/proc/vmstat has no pswpin/pswpout", why, NULL);
    return;
  }
  char detail[128];
  snprintf(detail, sizeof detail, "%llu pages swapped in or out during %.*f s", after - before,
           window_s < 0.1 ? 3 : 2, window_s);
  add(list, "swap", after > before ? "warn" : "ok", detail, why,
      "Free memory (stop other jobs, shrink the problem size) until nothing swaps while idle.");
}

static void check_build(json_t *list) {
  const char *why = "An unoptimised rigor adds its own overhead around every measured window and "
                    "to the timing loop (Google Benchmark warns the same way).";
  const char *type = RIGOR_BUILD_TYPE;
  bool debug = type[0] == '\0' || strcmp(type, "Debug") == 0;
  char detail[128];
  snprintf(detail, sizeof detail, "rigor was built as '%s'", type[0] ? type : "(no build type)");
  add(list, "build", debug ? "warn" : "ok", detail, why,
      "Rebuild with -DCMAKE_BUILD_TYPE=Release or RelWithDebInfo.");
}

static void sleep_s(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct rigor_env_window {
  char root[4096];
  double opened_s;
  proc_ticks_t *before;
  int n_before;
  int rc_swap;
  unsigned long long swap_before;
};

rigor_env_window_t *rigor__env_window_open_at(const char *root) {
  rigor_env_window_t *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  snprintf(w->root, sizeof w->root, "%s", root);
  w->n_before = proc_snapshot(root, &w->before);
  w->rc_swap = read_swaps(root, &w->swap_before);
  w->opened_s = now_s();
  return w;
}

rigor_env_window_t *rigor_env_window_open(void) {
  return rigor__env_window_open_at("");
}

double rigor_env_window_elapsed(const rigor_env_window_t *w) {
  return w ? now_s() - w->opened_s : 0.0;
}

json_t *rigor_env_window_close(rigor_env_window_t *w) {
  if (!w) return NULL;
  const double window_s = now_s() - w->opened_s;
  proc_ticks_t *after = NULL;
  unsigned long long swap_after = 0;
  /* A window too short for ticks gets no second look at every process: it would say nothing. */
  const bool resolvable = window_s * (double)sysconf(_SC_CLK_TCK) >= BUSY_MIN_TICKS;
  int n_after = resolvable ? proc_snapshot(w->root, &after) : 0;
  int rc_swap_after = read_swaps(w->root, &swap_after);
  json_t *list = json_array();
  check_busy(list, w->before, w->n_before, after, n_after, window_s);
  check_swap(list, w->rc_swap, w->swap_before, rc_swap_after, swap_after, window_s);
  free(after);
  free(w->before);
  free(w);
  return list;
}

/* The checks in the order `rigor check` prints them; the sampled ones are placeholders until
 * their window closes. */
static json_t *instant_checks(const char *root) {
  const char *pending = "pending";
  const char *detail = "sampled over a window that spans the runs; the result is the `checks` "
                       "member of the run record written when the window closed";
  json_t *list = json_array();
  json_t *freq = rigor__cpufreq_state(root);
  check_governor(list, freq);
  check_boost(list, freq);
  json_decref(freq);
  check_load(list, root);
  add(list, "busy_processes", pending, detail, BUSY_WHY, NULL);
  check_aslr(list, root);
  add(list, "swap", pending, detail, SWAP_WHY, NULL);
  check_build(list);
  return list;
}

void rigor_env_checks_settle(json_t *list, const json_t *sampled) {
  size_t i, j;
  json_t *c;
  const json_t *r;
  json_array_foreach(list, i, c) {
    json_array_foreach(sampled, j, r) {
      if (json_equal(json_object_get(c, "check"), json_object_get(r, "check")))
        json_array_set(list, i, (json_t *)r);
    }
  }
}

json_t *rigor_env_check_pending(void) {
  return instant_checks("");
}

json_t *rigor__env_check_at(const char *root, double window_s) {
  json_t *list = instant_checks(root);
  rigor_env_window_t *w = rigor__env_window_open_at(root);
  sleep_s(window_s);
  json_t *sampled = rigor_env_window_close(w);
  rigor_env_checks_settle(list, sampled);
  json_decref(sampled);
  return list;
}

json_t *rigor_env_check(void) {
  return rigor__env_check_at("", RIGOR_ENV_WINDOW_S);
}
