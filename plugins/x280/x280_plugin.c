#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "rigor/plugin_identity.h"
#include "x280_check.h"
#include "x280_cold.h"
#include "x280_forkjoin_omp.h"
#include "x280_ops.h"
#include "x280_reference.h"
#include "x280_state.h"
#include "x280_vmap.h"

#define X280_VERSION "1.0.0"
/* What a poisoned output word holds before an operation writes it. */
#define X280_POISON 0xa5

const char *const x280_pattern_names[] = {"map",
                                          "map_vector",
                                          "map_heavy",
                                          "reduction",
                                          "prefix_sum",
                                          "prefix_sum_serial",
                                          "false_sharing_packed",
                                          "false_sharing_padded",
                                          "fork_join_pool",
                                          "fork_join_omp",
                                          NULL};

const char *const x280_layout_names[] = {"chunks", "quarters", "aliased", NULL};

static const char *const pattern_aliases[] = {
    "all",
    "map,map_vector,map_heavy,reduction,prefix_sum,prefix_sum_serial,false_sharing_packed,"
    "false_sharing_padded,fork_join_pool,fork_join_omp",
    "table",
    "map,map_vector,map_heavy,reduction,prefix_sum,prefix_sum_serial",
    "maps",
    "map,map_vector,map_heavy",
    "prefix",
    "prefix_sum,prefix_sum_serial",
    "false_sharing",
    "false_sharing_packed,false_sharing_padded",
    "fork_join",
    "fork_join_pool,fork_join_omp",
    NULL};

static const rigor_param_t x280_params[] = {
    {.name = "pattern",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(x280_params_t, pattern),
     .def = "map",
     .choices = x280_pattern_names,
     .aliases = pattern_aliases,
     .help = "what each core does; aliases: all, table (the X280 measurements' "
             "one-core-against-four table), maps, "
             "prefix, false_sharing, fork_join"},
    {.name = "words",
     .type = RIGOR_PARAM_SIZE,
     .offset = offsetof(x280_params_t, words),
     .def = "262144",
     .min = "1",
     .max = "1G",
     .help = "uint32 words per array; for false_sharing, the adds each core makes per operation"},
    {.name = "layout",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(x280_params_t, layout),
     .def = "chunks",
     .choices = x280_layout_names,
     .help =
         "chunks: 4 KiB chunks taken in turn; quarters: one contiguous block per core; aliased: "
         "chunks, with the output a whole number of alias_stride bytes from the input"},
    {.name = "alias_stride",
     .type = RIGOR_PARAM_SIZE,
     .offset = offsetof(x280_params_t, alias_stride),
     .def = "128KiB",
     .min = "128",
     .max = "1GiB",
     .help = "the cache way size arrays are sized in; outside the aliased layout the input is "
             "padded by "
             "half of it"},
    {.name = "cores",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(x280_params_t, cores),
     .def = "1",
     .min = "1",
     .max = "255",
     .help = "cores in all (prefix_sum_serial always uses one)"},
    {.name = "cores_per_cluster",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(x280_params_t, cores_per_cluster),
     .def = "0",
     .min = "0",
     .max = "255",
     .help = "cores per cluster, each cluster with its own copy of the arrays and explicit pushes "
             "between them; 0: one cluster of all cores"},
    {.name = "rounds",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(x280_params_t, rounds),
     .def = "16",
     .min = "1",
     .max = "1048576",
     .help = "times map_heavy applies mix to each word"},
    {.name = "seed",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(x280_params_t, seed),
     .def = "1",
     .help = "seed of the input words"},
    {.name = "deadline",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(x280_params_t, deadline),
     .def = "0",
     .min = "0",
     .max = "86400",
     .help = "seconds from init after which an operation stops and the run fails as late; 0: none"},
    {.name = "spin_us",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(x280_params_t, spin_us),
     .def = "100",
     .min = "0",
     .max = "1000000",
     .help = "microseconds the pool's threads spin before they block (not sweepable)"},
    {.name = "cold",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(x280_params_t, cold),
     .def = "true",
     .help = "prime evicts the caches before each measured window"},
    {.name = "plant_error",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(x280_params_t, plant_error),
     .def = "false",
     .help = "spoil one output value after each run, to show the check catches it"},
    {.name = "prefetch",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(x280_params_t, prefetch),
     .def = "true",
     .help =
         "each core prefetches the chunk it takes next, a line for every line it works on, in the "
         "memory-bound patterns (map, map_vector, reduction, prefix_sum); hardware prefetchers "
         "stop "
         "at 4 KiB pages, and chunks taken in turn skip pages"},
    {.name = "proc_bind",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(x280_params_t, proc_bind),
     .def = "spread",
     .choices = x280_bind_names,
     .help = "where pool and OpenMP thread k run among the run's CPUs, as OpenMP's proc_bind: "
             "spread over them or close together (not sweepable)"},
};

static const char *pattern_name(const x280_params_t *p) {
  return x280_pattern_names[p->pattern];
}

static int available_cpus(const rigor_host_t *host, rigor_ctx_t *ctx, int *cpus, unsigned cap) {
  int n = host->cpus ? host->cpus(ctx, cpus, (int)cap) : 0;
  if (n > 0) return n < (int)cap ? n : (int)cap;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  n = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && n < (int)cap; cpu++)
    if (CPU_ISSET(cpu, &set)) cpus[n++] = cpu;
  return n;
}

static void destroy(x280_state_t *s) {
  x280_pool_destroy(s->pool);
  if (s->omp_pinned)
    x280_forkjoin_omp_release(s->omp_threads, &s->caller_affinity, sizeof s->caller_affinity);
  if (s->clusters)
    for (unsigned c = 0; c < s->clusters_max; c++)
      free(s->clusters[c].arena);
  free(s->clusters);
  free(s->evict);
  free(s->slots);
  free((void *)s->packed);
  x280_topology_close(s->topo);
  free(s);
}

/* Checks every point before anything is allocated and sizes the state for the largest. */
static int size_for_points(x280_state_t *s, const x280_params_t *base, const rigor_points_t *pts,
                           unsigned n_cpus) {
  s->arena_align = 4096;
  for (uint32_t i = 0; i < pts->count; i++) {
    const x280_params_t *p = pts->points[i];
    x280_plan_t plan;
    char why[128] = "";
    if (x280_plan_make(&plan, p, why, sizeof why) != 0)
      return s->host->error(s->ctx, RIGOR_EINVAL, "x280: point %u (%s): %s", i, pattern_name(p),
                            why);
    if (plan.threads > n_cpus)
      return s->host->error(s->ctx, RIGOR_EUNAVAILABLE,
                            "x280: point %u (%s) asks for %u cores; this run has %u CPUs", i,
                            pattern_name(p), plan.threads, n_cpus);
    if (plan.pattern == X280_MAP_VECTOR && !x280_vmap_available())
      return s->host->error(s->ctx, RIGOR_EUNAVAILABLE,
                            "x280: map_vector needs the %s vector unit, which this CPU lacks",
                            x280_vmap_isa());
    if (plan.pattern == X280_FORK_JOIN_OMP && !x280_forkjoin_omp_available())
      return s->host->error(s->ctx, RIGOR_EUNAVAILABLE,
                            "x280: fork_join_omp needs OpenMP, which this build lacks");
    if (p->spin_us != base->spin_us || p->proc_bind != base->proc_bind)
      return s->host->error(s->ctx, RIGOR_EINVAL,
                            "x280: %s differs between points; the pool is made once per run, "
                            "so vary it in the matrix instead of the sweep",
                            p->spin_us != base->spin_us ? "spin_us" : "proc_bind");
    if (plan.pattern == X280_FORK_JOIN_OMP && plan.threads > s->omp_threads)
      s->omp_threads = plan.threads;
    if (plan.threads > s->threads_max) s->threads_max = plan.threads;
    if (plan.clusters > s->clusters_max) s->clusters_max = plan.clusters;
    if (plan.arena_bytes > s->arena_bytes) s->arena_bytes = plan.arena_bytes;
    if (plan.alias_stride > s->arena_align) s->arena_align = plan.alias_stride;
  }
  if (s->threads_max == 0) s->threads_max = 1;
  return 0;
}

static int allocate(x280_state_t *s) {
  s->clusters = calloc(s->clusters_max, sizeof *s->clusters);
  if (!s->clusters) return RIGOR_ENOMEM;
  for (unsigned c = 0; c < s->clusters_max; c++) {
    s->clusters[c].node = -1;
    if (s->arena_bytes > 0 &&
        posix_memalign(&s->clusters[c].arena, s->arena_align, s->arena_bytes) != 0)
      return RIGOR_ENOMEM;
  }
  s->slots = aligned_alloc(X280_LINE_BYTES, s->threads_max * sizeof *s->slots);
  s->packed_bytes =
      (s->threads_max * sizeof(uint64_t) + X280_LINE_BYTES - 1) / X280_LINE_BYTES * X280_LINE_BYTES;
  s->packed = aligned_alloc(X280_LINE_BYTES, s->packed_bytes);
  size_t evict_bytes = x280_cold_bytes(s->llc_bytes);
  s->evict_words = evict_bytes / sizeof(uint64_t);
  s->evict = aligned_alloc(X280_LINE_BYTES, evict_bytes);
  if (!s->slots || !s->packed || !s->evict) return RIGOR_ENOMEM;
  memset(s->evict, 0, evict_bytes);
  return 0;
}

static int x280_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                     const rigor_points_t *points, void **state, rigor_work_t *work) {
  if (!host || !params || !points || !state || !work) return RIGOR_EINVAL;
  x280_state_t *s = calloc(1, sizeof *s);
  if (!s) return host->error(ctx, RIGOR_ENOMEM, "x280: out of memory for the state");
  s->ctx = ctx;
  s->host = host;
  s->work = work;
  s->start_ns = host->now_ns(ctx);
  int rc = x280_topology_open(&s->topo);
  if (rc != 0) {
    free(s);
    return host->error(ctx, rc, "x280: hwloc could not read this machine's topology");
  }
  s->llc_bytes = x280_topology_llc_bytes(s->topo);
  int n_cpus = available_cpus(host, ctx, s->cpus, X280_POOL_MAX_THREADS);
  x280_topology_sort_cpus(s->topo, s->cpus, (unsigned)n_cpus);
  s->n_cpus = (unsigned)n_cpus;
  const x280_params_t *base = params;
  s->bind = (x280_bind_t)base->proc_bind;
  rc = size_for_points(s, base, points, (unsigned)n_cpus);
  x280_bind_map(s->bind, s->cpus, s->n_cpus, s->threads_max, s->thread_cpus);
  x280_bind_map(s->bind, s->cpus, s->n_cpus, s->omp_threads, s->omp_cpus);
  if (rc == 0 && (rc = allocate(s)) != 0)
    host->error(ctx, rc,
                "x280: cannot allocate %u arenas of %zu bytes and a %zu-byte eviction "
                "buffer",
                s->clusters_max, s->arena_bytes, x280_cold_bytes(s->llc_bytes));
  /* The caller's mask before the pool narrows it: OpenMP's team gets it back at fini. */
  const bool have_mask =
      pthread_getaffinity_np(pthread_self(), sizeof s->caller_affinity, &s->caller_affinity) == 0;
  int pool_rc =
      rc == 0 ? x280_pool_create(&s->pool, s->thread_cpus, s->threads_max, base->spin_us * 1000u)
              : 0;
  if (pool_rc != 0)
    rc = host->error(ctx, RIGOR_EIO, "x280: cannot start and pin %u pool threads: %s",
                     s->threads_max, strerror(-pool_rc));
  if (rc == 0 && s->omp_threads > 0) {
    s->omp_pinned = have_mask;
    if (x280_forkjoin_omp_pin(s->omp_cpus, s->omp_threads, s->omp_bound) != 0)
      rc = host->error(ctx, RIGOR_EIO, "x280: cannot pin OpenMP's %u threads", s->omp_threads);
  }
  if (rc != 0) {
    destroy(s);
    return rc;
  }
  *state = s;
  return 0;
}

static void place_cluster(x280_state_t *s, unsigned c) {
  x280_cluster_mem_t *mem = &s->clusters[c];
  int node = x280_topology_node_of_cpu(s->topo, s->thread_cpus[c * s->plan.cores_per_cluster]);
  if (node != mem->node && x280_topology_bind(s->topo, mem->arena, s->arena_bytes, node) == 0)
    mem->node = node;
  unsigned char *arena = mem->arena;
  mem->in = (uint32_t *)arena;
  mem->out = (uint32_t *)(arena + s->plan.out_offset);
  mem->sums = (uint32_t *)(arena + s->plan.sums_offset);
}

/* Makes `point` current: input written, every other array poisoned, counters zeroed. */
static void select_point(x280_state_t *s, const x280_params_t *point) {
  char why[128];
  x280_plan_make(&s->plan, point, why, sizeof why);
  s->point = *point;
  s->selected = true;
  size_t bytes = s->plan.words * sizeof(uint32_t);
  bool arrays = x280_plan_has_arrays(&s->plan);
  for (unsigned c = 0; arrays && c < s->plan.clusters; c++) {
    place_cluster(s, c);
    x280_cluster_mem_t *mem = &s->clusters[c];
    if (c == 0)
      x280_input_fill(mem->in, s->plan.words, point->seed);
    else
      memset(mem->in, X280_POISON, bytes);
    memset(mem->out, X280_POISON, bytes);
    memset(mem->sums, X280_POISON, s->plan.chunks * sizeof(uint32_t));
  }
  memset(s->slots, 0, s->threads_max * sizeof *s->slots);
  memset((void *)s->packed, 0, s->packed_bytes);
  s->sum = 0;
  s->ops = 0;
  atomic_store(&s->stop, 0);
  s->work->bytes = x280_op_bytes(&s->plan);
}

static bool is_current(const x280_state_t *s, const x280_params_t *point) {
  return s->selected && memcmp(&s->point, point, sizeof *point) == 0;
}

static int report_stop(x280_state_t *s, int rc) {
  if (rc == RIGOR_ETIMEDOUT) {
    double elapsed = (double)(s->host->now_ns(s->ctx) - s->start_ns) * 1e-9;
    return s->host->error(s->ctx, rc, "x280: %s is late: %.3f s since init, deadline %g s",
                          pattern_name(&s->point), elapsed, s->point.deadline);
  }
  return s->host->error(s->ctx, rc, "x280: %s stopped at the host's request",
                        pattern_name(&s->point));
}

static int x280_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx;
  x280_state_t *s = state;
  select_point(s, point);
  int rc = s->point.cold ? x280_cold_evict(s) : x280_poll_host(s);
  return rc == 0 ? 0 : report_stop(s, rc);
}

/* The host is asked every this many operations: often enough for a deadline, rarely enough
 * that an empty fork-join call does not pay for the clock. */
#define X280_POLL_OPS 64u

static int x280_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx;
  x280_state_t *s = state;
  if (!is_current(s, point)) select_point(s, point);
  for (uint64_t i = 0; i < n; i++) {
    int rc = i % X280_POLL_OPS == 0 ? x280_poll_host(s) : 0;
    if (rc == 0) rc = x280_op(s);
    if (rc != 0) return report_stop(s, rc);
    s->ops++;
  }
  if (s->point.plant_error) x280_plant_error(s);
  s->work->bytes = x280_op_bytes(&s->plan);
  return 0;
}

static int x280_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  x280_state_t *s = state;
  if (!is_current(s, point))
    return s->host->error(ctx, RIGOR_EINVAL, "x280: validate of a point that did not run last");
  return x280_check(s, check);
}

static void x280_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  destroy(state);
}

/* "0,1,*": the CPU of each thread, * for one that may run on several. */
static void cpu_list(char *out, size_t cap, const int *cpus, unsigned n) {
  size_t used = 0;
  out[0] = '\0';
  for (unsigned k = 0; k < n && used < cap; k++) {
    int w = cpus[k] >= 0 ? snprintf(out + used, cap - used, k ? ",%d" : "%d", cpus[k])
                         : snprintf(out + used, cap - used, k ? ",*" : "*");
    used = w < 0 ? cap : used + (size_t)w;
  }
}

static int x280_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  x280_state_t *s = state;
  char cpus[256];
  cpu_list(cpus, sizeof cpus, s->thread_cpus, s->threads_max);
  int n = rigor_kv_put(out, cap, 0, "x280.pool_cpus", "%s", cpus);
  n = rigor_kv_put(out, cap, n, "x280.proc_bind", "%s", x280_bind_names[s->bind]);
  if (s->omp_threads > 0) {
    cpu_list(cpus, sizeof cpus, s->omp_bound, s->omp_threads);
    n = rigor_kv_put(out, cap, n, "x280.omp_cpus", "%s", cpus);
  }
  n = rigor_kv_put(out, cap, n, "x280.numa_nodes", "%d", x280_topology_numa_nodes(s->topo));
  n = rigor_kv_put(out, cap, n, "x280.llc_bytes", "%llu", (unsigned long long)s->llc_bytes);
  n = rigor_kv_put(out, cap, n, "x280.evict_bytes", "%zu", s->evict_words * sizeof(uint64_t));
  n = rigor_kv_put(out, cap, n, "x280.vector_isa", "%s", x280_vmap_isa());
  n = rigor_kv_put(out, cap, n, "x280.openmp", "%ld", x280_forkjoin_omp_version());
  return n;
}

/* What init refuses for the params alone, said by `rigor validate` before any run: a point with
 * no plan, and a pool setting that varies within the sweep. What depends on the machine (its
 * CPUs, its vector unit, OpenMP) is left to init, which skips the run. */
static int x280_check_params(const void *params, const rigor_points_t *points, char *err,
                             size_t errlen, const char **param) {
  const x280_params_t *base = params;
  for (uint32_t i = 0; i < points->count; i++) {
    const x280_params_t *p = points->points[i];
    x280_plan_t plan;
    char why[128] = "";
    if (x280_plan_make(&plan, p, why, sizeof why) != 0) {
      if (points->count > 1)
        snprintf(err, errlen, "point %u (%s): %s", i, pattern_name(p), why);
      else
        snprintf(err, errlen, "%s", why);
      return RIGOR_EINVAL;
    }
    if (p->spin_us != base->spin_us || p->proc_bind != base->proc_bind) {
      *param = p->spin_us != base->spin_us ? "spin_us" : "proc_bind";
      snprintf(err, errlen,
               "differs between points; the pool is made once per run, so vary it in the "
               "matrix instead of the sweep");
      return RIGOR_EINVAL;
    }
  }
  return 0;
}

static const rigor_plugin_t x280_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "x280",
    .version = X280_VERSION,
    .summary = "the parallel-thread patterns of the X280 measurements on the host's cores",
    .params = x280_params,
    .n_params = sizeof x280_params / sizeof x280_params[0],
    .params_size = sizeof(x280_params_t),
    .init = x280_init,
    .prime = x280_prime,
    .run = x280_run,
    .validate = x280_validate,
    .fini = x280_fini,
    .identity = x280_identity,
    .check_params = x280_check_params,
    .capabilities = RIGOR_CAP_DECLARED | RIGOR_CAP_CHECKS_PARAMS | RIGOR_CAP_VALIDATES | RIGOR_CAP_IDENTITY,
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &x280_plugin : NULL;
}
