#include "context.h"
#include "clock.h"
#include "utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int host_error(rigor_ctx_t *ctx, int code, const char *fmt, ...) {
  if (ctx->error_code != 0) return code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
  va_end(ap);
  rigor_utf8_sanitize(ctx->error); /* recorded as a JSON string, which must be UTF-8 */
  ctx->error_code = code ? code : RIGOR_EPLUGIN;
  if (ctx->on_error) ctx->on_error(ctx->on_error_arg, ctx->error_code, ctx->error);
  return code;
}

static void host_log(rigor_ctx_t *ctx, rigor_log_level_t level, const char *fmt, ...) {
  if ((int)level < ctx->log_level) return;
  static const char *const names[] = {"debug", "info", "warning", "error"};
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* Arms of one run are instances of one plugin: a message they all log is printed once. */
  static char said[8][160];
  static unsigned n_said;
  for (unsigned i = 0; i < n_said && i < 8; i++)
    if (strncmp(said[i], msg, sizeof said[i] - 1) == 0) return;
  char *slot = said[n_said++ % 8];
  size_t len = strnlen(msg, sizeof said[0] - 1);
  memcpy(slot, msg, len);
  slot[len] = '\0';
  fprintf(stderr, "rigor: plugin %s: %s\n", names[level <= RIGOR_LOG_ERROR ? level : 3], msg);
}

static int host_rank(rigor_ctx_t *ctx) {
  return ctx->comm->rank;
}

static int host_nranks(rigor_ctx_t *ctx) {
  return ctx->comm->size;
}

static int host_barrier(rigor_ctx_t *ctx) {
  return ctx->comm->barrier(ctx->comm);
}

static int host_allreduce(rigor_ctx_t *ctx, void *buf, size_t count, rigor_host_dtype_t dtype,
                          rigor_redop_t op) {
  return ctx->comm->allreduce(ctx->comm, buf, count, dtype, op);
}

static int host_broadcast(rigor_ctx_t *ctx, void *buf, size_t bytes, int root) {
  return ctx->comm->broadcast(ctx->comm, buf, bytes, root);
}

static uint64_t host_now(rigor_ctx_t *ctx) {
  (void)ctx;
  return rigor_now_ns();
}

static bool host_should_stop(rigor_ctx_t *ctx) {
  if (ctx->stop && *ctx->stop) return true;
  if (ctx->deadline_ns > 0 && (double)rigor_now_ns() > ctx->deadline_ns) {
    ctx->deadline_hit = true;
    return true;
  }
  return false;
}

static int host_cpus(rigor_ctx_t *ctx, int *out, int cap) {
  int n = ctx->n_cpus < cap ? ctx->n_cpus : cap;
  if (n > 0) memcpy(out, ctx->cpus, (size_t)n * sizeof *out);
  return ctx->n_cpus;
}

static bool host_commands_allowed(rigor_ctx_t *ctx) {
  return ctx->commands_allowed;
}

static int single_barrier(rigor_comm_t *c) {
  (void)c;
  return 0;
}

static int single_allreduce(rigor_comm_t *c, void *buf, size_t count, rigor_host_dtype_t dtype,
                            rigor_redop_t op) {
  (void)c, (void)buf, (void)count, (void)dtype, (void)op;
  return 0;
}

static int single_broadcast(rigor_comm_t *c, void *buf, size_t bytes, int root) {
  (void)c, (void)buf, (void)bytes;
  return root == 0 ? 0 : RIGOR_EINVAL;
}

rigor_comm_t *rigor_comm_single(void) {
  static rigor_comm_t single = {0, 1, single_barrier, single_allreduce, single_broadcast, NULL};
  return &single;
}

void rigor_ctx_init(rigor_ctx_t *ctx, rigor_comm_t *comm, volatile sig_atomic_t *stop) {
  memset(ctx, 0, sizeof *ctx);
  ctx->comm = comm ? comm : rigor_comm_single();
  ctx->stop = stop;
  ctx->log_level = RIGOR_LOG_WARN;
  rigor_host_t *h = &ctx->host;
  h->size = sizeof *h;
  h->abi_major = RIGOR_ABI_MAJOR;
  h->error = host_error;
  h->log = host_log;
  h->rank = host_rank;
  h->nranks = host_nranks;
  h->barrier = host_barrier;
  h->allreduce = host_allreduce;
  h->broadcast = host_broadcast;
  h->now_ns = host_now;
  h->should_stop = host_should_stop;
  h->cpus = host_cpus;
  h->commands_allowed = host_commands_allowed;
}
