#include "test_host.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int th_error(rigor_ctx_t *ctx, int code, const char *fmt, ...) {
  test_host_t *th = (test_host_t *)ctx;
  if (th->first_error_code == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(th->first_error, sizeof th->first_error, fmt, ap);
    va_end(ap);
    th->first_error_code = code;
  }
  return code;
}

static void th_log(rigor_ctx_t *ctx, rigor_log_level_t level, const char *fmt, ...) {
  (void)ctx;
  if (level < RIGOR_LOG_WARN) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static int th_rank(rigor_ctx_t *ctx) {
  (void)ctx;
  return 0;
}

static int th_nranks(rigor_ctx_t *ctx) {
  (void)ctx;
  return 1;
}

static int th_barrier(rigor_ctx_t *ctx) {
  (void)ctx;
  return 0;
}

static int th_allreduce(rigor_ctx_t *ctx, void *buf, size_t count, rigor_host_dtype_t dtype,
                        rigor_redop_t op) {
  (void)ctx, (void)buf, (void)count, (void)dtype, (void)op;
  return 0;
}

static int th_broadcast(rigor_ctx_t *ctx, void *buf, size_t bytes, int root) {
  (void)ctx, (void)buf, (void)bytes, (void)root;
  return 0;
}

static uint64_t th_now(rigor_ctx_t *ctx) {
  (void)ctx;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool th_should_stop(rigor_ctx_t *ctx) {
  return ((test_host_t *)ctx)->stop != 0;
}

static int th_cpus(rigor_ctx_t *ctx, int *out, int cap) {
  test_host_t *th = (test_host_t *)ctx;
  int n = th->n_cpus < cap ? th->n_cpus : cap;
  memcpy(out, th->cpus, (size_t)n * sizeof *out);
  return th->n_cpus;
}

static bool th_commands_allowed(rigor_ctx_t *ctx) {
  return ((test_host_t *)ctx)->allow_commands != 0;
}

void test_host_init(test_host_t *th) {
  memset(th, 0, sizeof *th);
  th->host.size = sizeof th->host;
  th->host.abi_major = RIGOR_ABI_MAJOR;
  th->host.error = th_error;
  th->host.log = th_log;
  th->host.rank = th_rank;
  th->host.nranks = th_nranks;
  th->host.barrier = th_barrier;
  th->host.allreduce = th_allreduce;
  th->host.broadcast = th_broadcast;
  th->host.now_ns = th_now;
  th->host.should_stop = th_should_stop;
  th->host.cpus = th_cpus;
  th->host.commands_allowed = th_commands_allowed;
}

const rigor_plugin_t *test_plugin_open(const char *so_path, const char *name, void **handle) {
  *handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!*handle) {
    fprintf(stderr, "dlopen %s: %s\n", so_path, dlerror());
    abort();
  }
  rigor_plugin_get_fn get = (rigor_plugin_get_fn)dlsym(*handle, RIGOR_PLUGIN_GET_SYMBOL);
  if (!get) {
    fprintf(stderr, "%s: no %s\n", so_path, RIGOR_PLUGIN_GET_SYMBOL);
    abort();
  }
  for (uint32_t i = 0;; i++) {
    const rigor_plugin_t *d = get(i);
    if (!d) break;
    if (strcmp(d->name, name) == 0) return d;
  }
  fprintf(stderr, "%s: no plugin named %s\n", so_path, name);
  abort();
}
