/* The per-process context behind rigor_ctx_t, and the host services table lent to plugins. */
#ifndef RIGOR_CONTEXT_H
#define RIGOR_CONTEXT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rigor/plugin.h"

/* Collective operations across the ranks of one run; trivial for a single process, MPI-backed
 * under a launcher. */
typedef struct rigor_comm {
  int rank;
  int size;
  int (*barrier)(struct rigor_comm *c);
  int (*allreduce)(struct rigor_comm *c, void *buf, size_t count, rigor_host_dtype_t dtype,
                   rigor_redop_t op);
  int (*broadcast)(struct rigor_comm *c, void *buf, size_t bytes, int root);
  void *impl;
} rigor_comm_t;

/* Called (from the process that holds the context) when a plugin records its first error. */
typedef void (*rigor_error_hook_fn)(void *arg, int code, const char *message);

struct rigor_ctx {
  rigor_host_t host;
  rigor_comm_t *comm;
  int error_code;
  char error[1024];
  rigor_error_hook_fn on_error;
  void *on_error_arg;
  volatile sig_atomic_t *stop;
  double deadline_ns; /* absolute CLOCK_MONOTONIC time, 0 for none */
  bool deadline_hit;
  int cpus[1024];
  int n_cpus;
  bool commands_allowed;
  int log_level;
};

void rigor_ctx_init(rigor_ctx_t *ctx, rigor_comm_t *comm, volatile sig_atomic_t *stop);
rigor_comm_t *rigor_comm_single(void);

#endif
