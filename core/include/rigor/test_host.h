/* rigor/test_host.h: a single-rank host services table for driving a plugin directly in its
 * own unit tests, without rigor's runner, and opening a plugin module by name. Header-only; link
 * with -ldl where libc lacks dlopen (CMake: the target rigor::test_host does both). Under
 * -std=c11, define _POSIX_C_SOURCE 200809L before any include, as for any POSIX code.
 *
 *   rigor_test_host_t th;
 *   rigor_test_host_init(&th);
 *   void *handle;
 *   const rigor_plugin_t *d = rigor_test_plugin_open("build/my.so", "my", &handle);
 *   rigor_ctx_t *ctx = (rigor_ctx_t *)&th;      // the ctx every callback receives
 *   d->init(ctx, &th.host, &params, &points, &state, &work);
 *   d->run(ctx, state, &params, 1);             // the warmup: run() before the first prime()
 *   d->prime(ctx, state, &params); ...
 *   // th.first_error_code / th.first_error: the first host->error() the plugin reported
 */
#ifndef RIGOR_TEST_HOST_H
#define RIGOR_TEST_HOST_H

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rigor/plugin.h"

typedef struct rigor_test_host {
  rigor_host_t host; /* first: a rigor_ctx_t * points at the whole struct */
  int first_error_code;
  char first_error[512];
  int stop;           /* what host->should_stop() answers */
  int cpus[8];        /* what host->cpus() answers: the run's CPU set */
  int n_cpus;         /* 0: none bound */
  int allow_commands; /* what host->commands_allowed() answers */
} rigor_test_host_t;

static inline int rigor_test_host_error_(rigor_ctx_t *ctx, int code, const char *fmt, ...)
    RIGOR_PRINTF(3, 4);
static inline int rigor_test_host_error_(rigor_ctx_t *ctx, int code, const char *fmt, ...) {
  rigor_test_host_t *th = (rigor_test_host_t *)ctx;
  if (th->first_error_code == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(th->first_error, sizeof th->first_error, fmt, ap);
    va_end(ap);
    th->first_error_code = code;
  }
  return code;
}

static inline void rigor_test_host_log_(rigor_ctx_t *ctx, rigor_log_level_t level, const char *fmt,
                                        ...) RIGOR_PRINTF(3, 4);
static inline void rigor_test_host_log_(rigor_ctx_t *ctx, rigor_log_level_t level, const char *fmt,
                                        ...) {
  (void)ctx;
  if (level < RIGOR_LOG_WARN) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static inline int rigor_test_host_rank_(rigor_ctx_t *ctx) {
  (void)ctx;
  return 0;
}

static inline int rigor_test_host_nranks_(rigor_ctx_t *ctx) {
  (void)ctx;
  return 1;
}

static inline int rigor_test_host_barrier_(rigor_ctx_t *ctx) {
  (void)ctx;
  return 0;
}

/* One rank: every reduction and broadcast leaves the buffer as it is. */
static inline int rigor_test_host_allreduce_(rigor_ctx_t *ctx, void *buf, size_t count,
                                             rigor_host_dtype_t dtype, rigor_redop_t op) {
  (void)ctx, (void)buf, (void)count, (void)dtype, (void)op;
  return 0;
}

static inline int rigor_test_host_broadcast_(rigor_ctx_t *ctx, void *buf, size_t bytes, int root) {
  (void)ctx, (void)buf, (void)bytes, (void)root;
  return 0;
}

static inline uint64_t rigor_test_host_now_(rigor_ctx_t *ctx) {
  (void)ctx;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline bool rigor_test_host_should_stop_(rigor_ctx_t *ctx) {
  return ((rigor_test_host_t *)ctx)->stop != 0;
}

static inline int rigor_test_host_cpus_(rigor_ctx_t *ctx, int *out, int cap) {
  rigor_test_host_t *th = (rigor_test_host_t *)ctx;
  int n = th->n_cpus < cap ? th->n_cpus : cap;
  if (n > 0) memcpy(out, th->cpus, (size_t)n * sizeof *out);
  return th->n_cpus;
}

static inline bool rigor_test_host_commands_allowed_(rigor_ctx_t *ctx) {
  return ((rigor_test_host_t *)ctx)->allow_commands != 0;
}

/* Fills the table; pass (rigor_ctx_t *)th as every callback's ctx and &th->host to init(). */
static inline void rigor_test_host_init(rigor_test_host_t *th) {
  memset(th, 0, sizeof *th);
  th->host.size = sizeof th->host;
  th->host.abi_major = RIGOR_ABI_MAJOR;
  th->host.error = rigor_test_host_error_;
  th->host.log = rigor_test_host_log_;
  th->host.rank = rigor_test_host_rank_;
  th->host.nranks = rigor_test_host_nranks_;
  th->host.barrier = rigor_test_host_barrier_;
  th->host.allreduce = rigor_test_host_allreduce_;
  th->host.broadcast = rigor_test_host_broadcast_;
  th->host.now_ns = rigor_test_host_now_;
  th->host.should_stop = rigor_test_host_should_stop_;
  th->host.cpus = rigor_test_host_cpus_;
  th->host.commands_allowed = rigor_test_host_commands_allowed_;
}

/* dlopens the plugin module at `so_path` and returns its descriptor called `name`, *handle the
 * module for dlclose. NULL, after printing why to stderr, when the module does not load, has no
 * rigor_plugin_get, or holds no plugin of that name. */
static inline const rigor_plugin_t *rigor_test_plugin_open(const char *so_path, const char *name,
                                                           void **handle) {
  *handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
  if (!*handle) {
    fprintf(stderr, "dlopen %s: %s\n", so_path, dlerror());
    return NULL;
  }
  rigor_plugin_get_fn get;
  /* dlsym returns an object pointer; ISO C has no cast from it to a function pointer. */
  void *sym = dlsym(*handle, RIGOR_PLUGIN_GET_SYMBOL);
  memcpy(&get, &sym, sizeof get);
  if (!sym) {
    fprintf(stderr, "%s: no %s\n", so_path, RIGOR_PLUGIN_GET_SYMBOL);
  } else {
    for (uint32_t i = 0;; i++) {
      const rigor_plugin_t *d = get(i);
      if (!d) break;
      if (strcmp(d->name, name) == 0) return d;
    }
    fprintf(stderr, "%s: no plugin named %s\n", so_path, name);
  }
  dlclose(*handle);
  *handle = NULL;
  return NULL;
}

#endif
