/* The plugin instance: the pool, one memory arena per cluster, the cold-cache buffer, the per-core
 * slots, and the point selected last. */
#ifndef X280_STATE_H
#define X280_STATE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sched.h>

#include "rigor/plugin.h"
#include "x280_bind.h"
#include "x280_plan.h"
#include "x280_pool.h"
#include "x280_topology.h"

/* A word each core writes often gets a line of its own. */
typedef struct x280_slot {
  alignas(X280_LINE_BYTES) volatile uint64_t value;
  uint64_t calls;
} x280_slot_t;

typedef struct x280_cluster_mem {
  void *arena;
  uint32_t *in;
  uint32_t *out;
  uint32_t *sums;
  int node; /* NUMA node the arena is bound to; -1 before the first binding */
} x280_cluster_mem_t;

typedef struct x280_state {
  rigor_ctx_t *ctx;
  const rigor_host_t *host;
  rigor_work_t *work;
  x280_topology_t *topo;
  int cpus[X280_POOL_MAX_THREADS]; /* the run's CPUs, ordered by NUMA node */
  unsigned n_cpus;
  x280_bind_t bind;
  int thread_cpus[X280_POOL_MAX_THREADS]; /* pool thread k runs on thread_cpus[k] */
  unsigned threads_max;
  unsigned omp_threads;                 /* the largest OpenMP team a point asks for; 0: none */
  int omp_cpus[X280_POOL_MAX_THREADS];  /* where OpenMP thread k is pinned */
  int omp_bound[X280_POOL_MAX_THREADS]; /* where it may run, read back; -1 for several CPUs */
  bool omp_pinned;
  cpu_set_t caller_affinity; /* given back to OpenMP's team at fini */
  x280_pool_t *pool;

  x280_cluster_mem_t *clusters;
  unsigned clusters_max;
  size_t arena_bytes;
  size_t arena_align;

  uint64_t *evict;
  size_t evict_words;
  uint64_t llc_bytes;

  x280_slot_t *slots;        /* threads_max slots, a line each */
  volatile uint64_t *packed; /* threads_max counters side by side from a line's start */
  size_t packed_bytes;

  uint64_t start_ns; /* init's start: the deadline counts from it */
  x280_params_t point;
  bool selected;
  x280_plan_t plan;
  uint64_t ops;     /* operations run since the point was selected */
  uint64_t sum;     /* the reduction's merged result */
  _Atomic int stop; /* 0, or the code that stops every core's loop */
} x280_state_t;

#endif
