#include "noise.h"
#include "rigor/plugin.h"

#include "affinity.h"

#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

typedef enum { BURNER_CPU = 0, BURNER_MEMBW } burner_kind_t;
static const char *const burner_kind_names[] = {"cpu", "membw"};

typedef struct burner_proc {
  burner_kind_t kind;
  int cpu;
  pid_t pid;
} burner_proc_t;

struct rigor_noise {
  char *label;
  burner_proc_t *procs;
  int n_procs;
};

/* Every live burner pid, readable from a signal handler: slots hold a pid or 0. */
#define LIVE_SLOTS 1024
static volatile sig_atomic_t live_pids[LIVE_SLOTS];

static void live_add(pid_t pid) {
  for (int i = 0; i < LIVE_SLOTS; i++) {
    if (live_pids[i] == 0) {
      live_pids[i] = pid;
      return;
    }
  }
}

static void live_remove(pid_t pid) {
  for (int i = 0; i < LIVE_SLOTS; i++)
    if (live_pids[i] == pid) live_pids[i] = 0;
}

void rigor_noise_kill_all(void) {
  int saved = errno;
  for (int i = 0; i < LIVE_SLOTS; i++) {
    pid_t pid = live_pids[i];
    /* Killed but not reaped: the zombie keeps the pid from being reused until stop reaps it. */
    if (pid > 0) kill(pid, SIGKILL);
  }
  errno = saved;
}

static int burner_kind_parse(const json_t *burner, burner_kind_t *kind, char *err, size_t errlen) {
  const json_t *k = json_object_get(burner, "kind");
  if (!k) {
    *kind = BURNER_CPU;
    return 0;
  }
  for (size_t i = 0; i < sizeof burner_kind_names / sizeof *burner_kind_names; i++) {
    if (json_is_string(k) && strcmp(json_string_value(k), burner_kind_names[i]) == 0) {
      *kind = (burner_kind_t)i;
      return 0;
    }
  }
  snprintf(err, errlen, "noise: burner kind must be 'cpu' or 'membw', not %s",
           json_is_string(k) ? json_string_value(k) : "a non-string");
  return RIGOR_ECONFIG;
}

int rigor_noise_check(const json_t *noise, char *err, size_t errlen) {
  if (!noise || json_is_null(noise)) return 0;
  if (!json_is_object(noise)) {
    snprintf(err, errlen, "noise: expected {label, burners: [...]}");
    return RIGOR_ECONFIG;
  }
  const char *key;
  const json_t *v;
  json_object_foreach((json_t *)noise, key, v) {
    if (strcmp(key, "label") != 0 && strcmp(key, "burners") != 0) {
      snprintf(err, errlen, "noise: unknown key '%s' (expected 'label' or 'burners')", key);
      return RIGOR_ECONFIG;
    }
  }
  const json_t *label = json_object_get(noise, "label");
  if (label && !json_is_string(label)) {
    snprintf(err, errlen, "noise: 'label' must be a string");
    return RIGOR_ECONFIG;
  }
  const json_t *burners = json_object_get(noise, "burners");
  if (!burners || json_is_null(burners)) return 0;
  if (!json_is_array(burners)) {
    snprintf(err, errlen, "noise: 'burners' must be a list of {kind, cpus}");
    return RIGOR_ECONFIG;
  }
  size_t i;
  json_array_foreach(burners, i, v) {
    if (!json_is_object(v)) {
      snprintf(err, errlen, "noise: burner %zu must be {kind, cpus}", i);
      return RIGOR_ECONFIG;
    }
    json_object_foreach((json_t *)v, key, label) {
      if (strcmp(key, "kind") != 0 && strcmp(key, "cpus") != 0) {
        snprintf(err, errlen, "noise: burner %zu: unknown key '%s' (expected 'kind' or 'cpus')", i,
                 key);
        return RIGOR_ECONFIG;
      }
    }
    burner_kind_t kind;
    int rc = burner_kind_parse(v, &kind, err, errlen);
    if (rc != 0) return rc;
    char what[64];
    snprintf(what, sizeof what, "noise: burner %zu", i);
    rc = rigor_cpu_list_check(json_object_get(v, "cpus"), what, err, errlen);
    if (rc != 0) return rc;
  }
  return 0;
}

/* Twice the largest cache, and at least 64 MiB, so every pass streams from DRAM. */
static size_t membw_bytes(void) {
  size_t bytes = (size_t)64 << 20;
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return bytes;
  if (hwloc_topology_load(topo) == 0) {
    for (hwloc_obj_type_t t = HWLOC_OBJ_L1CACHE; t <= HWLOC_OBJ_L5CACHE; t++) {
      for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, t, NULL); o;
           o = hwloc_get_next_obj_by_type(topo, t, o)) {
        if (o->attr && 2 * o->attr->cache.size > bytes) bytes = 2 * o->attr->cache.size;
      }
    }
  }
  hwloc_topology_destroy(topo);
  return bytes;
}

static void burn_cpu(void) {
  for (;;)
    __asm__ volatile("" ::: "memory");
}

static void burn_membw(size_t bytes) {
  uint64_t *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buf == MAP_FAILED) _exit(126);
  size_t half = bytes / sizeof *buf / 2;
  uint64_t *src = buf, *dst = buf + half;
  for (uint64_t pass = 1;; pass++) {
    for (size_t i = 0; i < half; i++)
      dst[i] = src[i] + pass;
    /* Keeps the stores: they are the point of the loop. */
    __asm__ volatile("" ::: "memory");
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
}

/* Runs in the forked child: only async-signal-safe calls until the loop. */
static void burner_main(const burner_proc_t *p, size_t membw, pid_t parent, int ready_fd) {
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  const int reset[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM};
  for (size_t i = 0; i < sizeof reset / sizeof *reset; i++)
    sigaction(reset[i], &dfl, NULL);
  setpgid(0, 0);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(125);

  /* Only the ready pipe (moved to fd 3) and /dev/null stay open: holding the parent's pipes
   * would hide EOFs from it. */
  if (ready_fd != 3) {
    dup2(ready_fd, 3);
    ready_fd = 3;
  }
  int devnull = open("/dev/null", O_RDWR);
  if (devnull >= 0) {
    dup2(devnull, 0);
    dup2(devnull, 1);
    dup2(devnull, 2);
  }
  if (close_range(4, ~0u, 0) != 0)
    for (int fd = 4; fd < 4096; fd++)
      close(fd);

  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(p->cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) _exit(127);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);

  char ok = 1;
  if (write(ready_fd, &ok, 1) != 1) _exit(124);
  close(ready_fd);
  if (p->kind == BURNER_MEMBW) burn_membw(membw);
  burn_cpu();
}

static void reap(pid_t pid) {
  kill(pid, SIGKILL);
  live_remove(pid);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
  }
}

/* Forks one burner and waits until it is pinned and about to loop. */
static int burner_fork(burner_proc_t *p, size_t membw, char *err, size_t errlen) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    snprintf(err, errlen, "noise: pipe: %s", strerror(errno));
    return RIGOR_EIO;
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "noise: fork: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return RIGOR_EIO;
  }
  if (pid == 0) {
    close(fds[0]);
    burner_main(p, membw, parent, fds[1]);
  }
  setpgid(pid, pid);
  live_add(pid);
  p->pid = pid;
  close(fds[1]);
  char ok = 0;
  ssize_t r;
  while ((r = read(fds[0], &ok, 1)) < 0 && errno == EINTR) {
  }
  close(fds[0]);
  if (r == 1) return 0;
  int status = 0;
  kill(pid, SIGKILL);
  live_remove(pid);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  p->pid = 0;
  snprintf(err, errlen, "noise: the %s burner for CPU %d did not start (%s %d)",
           burner_kind_names[p->kind], p->cpu, WIFEXITED(status) ? "exit status" : "signal",
           WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  return RIGOR_EIO;
}

int rigor_noise_start(const json_t *noise, rigor_noise_t **out, char *err, size_t errlen) {
  if (!out) return RIGOR_EINVAL;
  *out = NULL;
  int rc = rigor_noise_check(noise, err, errlen);
  if (rc != 0) return rc;
  rigor_noise_t *n = calloc(1, sizeof *n);
  if (!n) return RIGOR_ENOMEM;
  const json_t *label = json_object_get(noise, "label");
  n->label = strdup(label ? json_string_value(label) : "idle");
  const json_t *burners = json_object_get(noise, "burners");
  size_t total = 0, i;
  const json_t *b;
  json_array_foreach(burners, i, b) total += json_array_size(json_object_get(b, "cpus"));
  n->procs = calloc(total ? total : 1, sizeof *n->procs);
  if (!n->label || !n->procs) {
    rigor_noise_stop(n);
    return RIGOR_ENOMEM;
  }

  bool any_membw = false;
  json_array_foreach(burners, i, b) {
    burner_kind_t kind = BURNER_CPU;
    if (burner_kind_parse(b, &kind, err, errlen) < 0) { /* rigor_noise_check passed: unreachable */
      rigor_noise_stop(n);
      return RIGOR_ECONFIG;
    }
    size_t j;
    const json_t *cpu;
    json_array_foreach(json_object_get(b, "cpus"), j, cpu) {
      n->procs[n->n_procs++] = (burner_proc_t){kind, (int)json_integer_value(cpu), 0};
      any_membw |= kind == BURNER_MEMBW;
    }
  }
  size_t membw = any_membw ? membw_bytes() : 0;

  /* No signal handler may run between fork and registering the pid in the live table. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  for (int k = 0; k < n->n_procs && rc == 0; k++)
    rc = burner_fork(&n->procs[k], membw, err, errlen);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    rigor_noise_stop(n);
    return rc;
  }
  *out = n;
  return 0;
}

void rigor_noise_stop(rigor_noise_t *noise) {
  if (!noise) return;
  for (int k = 0; k < noise->n_procs; k++)
    if (noise->procs[k].pid > 0) reap(noise->procs[k].pid);
  free(noise->procs);
  free(noise->label);
  free(noise);
}

int rigor_noise_pids(const rigor_noise_t *noise, pid_t *pids, int cap) {
  if (!noise) return 0;
  for (int k = 0; k < noise->n_procs && k < cap; k++)
    pids[k] = noise->procs[k].pid;
  return noise->n_procs;
}

json_t *rigor_noise_describe(const rigor_noise_t *noise) {
  if (!noise) return json_pack("{s:s, s:[]}", "label", "idle", "burners");
  json_t *burners = json_array();
  for (int k = 0; k < noise->n_procs; k++) {
    const burner_proc_t *p = &noise->procs[k];
    json_array_append_new(burners,
                          json_pack("{s:s, s:[i], s:i}", "kind", burner_kind_names[p->kind], "cpus",
                                    p->cpu, "pid", (int)p->pid));
  }
  return json_pack("{s:s, s:o}", "label", noise->label, "burners", burners);
}
