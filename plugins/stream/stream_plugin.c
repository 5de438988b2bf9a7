#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "rigor/plugin_identity.h"
#include "stream_bind.h"
#include "stream_check.h"
#include "stream_contract.h"
#include "stream_elements.h"
#include "stream_kernels.h"
#include "stream_pages.h"
#include "stream_params.h"
#include "stream_replay.h"
#include "stream_stores.h"
#ifdef STREAM_FAULT_INJECTION
#include "stream_faults.h"
#endif

/* 2 MiB: every array starts on a huge-page boundary and spans whole huge pages, so each can be
 * backed by transparent huge pages from end to end. */
#define STREAM_ALIGNMENT ((size_t)2 << 20)
#define STREAM_N_ARRAYS  3

typedef struct stream_state {
  const rigor_host_t *host;
  rigor_work_t *work;
  stream_dtype_t dtype;
  size_t elements;
  size_t offset;
  int threads;
  bool nt_stores;
  const char *nt_isa;
  stream_copy_stores_t copy_stores;
  stream_store_path_t path[STREAM_N_KERNELS]; /* the stores each kernel writes with */
  int team; /* the team size of the last kernel's parallel region */
  stream_bind_t proc_bind;
  int *thread_cpus; /* the one CPU each OpenMP thread may run on, -1 for several */
  int *run_cpus;    /* the run's CPUs, kept to pin the team again after another arm did */
  int n_run_cpus;
  bool team_pinned;     /* the last pinned instance's fini gives the caller's former mask back */
  bool huge_pages;      /* asked for transparent huge pages (else base pages only) */
  int advise_error;     /* madvise's -errno for the arrays, 0 when it took the advice */
  long long huge_bytes; /* of the arrays, in huge pages after first touch; -1 unknown */
  char thp_mode[16];    /* the system's THP mode */
  stream_sizing_t sizing;
  void *alloc[STREAM_N_ARRAYS];
  size_t alloc_bytes[STREAM_N_ARRAYS];
  stream_job_t job;
  double dot;
  stream_kernel_fn kernels[STREAM_N_KERNELS];
  stream_replay_t replay;
  uint64_t rescales;
#ifdef STREAM_FAULT_INJECTION
  stream_fault_t fault;
#endif
} stream_state_t;

static const char *const kernel_choices[] = {"copy", "scale",   "add", "triad",
                                             "dot",  "nstream", NULL};
static const char *const kernel_aliases[] = {"classic", "copy,scale,add,triad", "all",
                                             "copy,scale,add,triad,dot,nstream", NULL};
static const char *const dtype_choices[] = {"double", "float", NULL};
static const char *const copy_store_choices[] = {"auto", "plain", "nt", NULL};
static const char *const bind_choices[] = {"spread", "close", "none", NULL};
static const char *const array_names[STREAM_N_ARRAYS] = {"a", "b", "c"};

static const rigor_param_t stream_params_table[] = {
    {.name = "kernels",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(stream_params_t, kernel),
     .def = "copy",
     .choices = kernel_choices,
     .aliases = kernel_aliases,
     .help = "kernel of each point: copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c, dot "
             "sum(a*b), nstream a+=b+s*c; sweep `classic` (STREAM's four in order) or `all`"},
    {.name = "elements",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(stream_params_t, elements),
     .def = "0",
     .help = "elements per array; 0 for STREAM's rule (4x the total last-level cache, at least "
             "20 clock ticks per kernel)"},
    {.name = "dtype",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(stream_params_t, dtype),
     .def = "double",
     .choices = dtype_choices,
     .help = "element type"},
    {.name = "threads",
     .type = RIGOR_PARAM_INT,
     .offset = offsetof(stream_params_t, threads),
     .def = "0",
     .min = "0",
     .max = "4096",
     .help = "OpenMP threads; 0 for one per CPU the run is bound to, else the OpenMP default"},
    {.name = "nt_stores",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(stream_params_t, nt_stores),
     .def = "false",
     .help = "non-temporal (streaming) stores, STREAM's `tuned` variant; refused where the CPU "
             "has none"},
    {.name = "offset",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(stream_params_t, offset),
     .def = "0",
     .max = "1048576",
     .help = "STREAM's OFFSET: array k starts k*offset elements past an aligned address"},
    {.name = "copy_stores",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(stream_params_t, copy_stores),
     .def = "auto",
     .choices = copy_store_choices,
     .help = "copy's stores: auto is non-temporal with nt_stores, else the C library's memcpy "
             "on each thread's share, as stream.c's copy compiles; plain and nt force the "
             "plugin's loop with those stores"},
    {.name = "proc_bind",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(stream_params_t, proc_bind),
     .def = "spread",
     .choices = bind_choices,
     .help = "each OpenMP thread pinned to one CPU of the run: spread over them or close "
             "together, as OpenMP's proc_bind; none leaves placement to the OpenMP runtime"},
    {.name = "huge_pages",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(stream_params_t, huge_pages),
     .def = "true",
     .help = "ask for 2 MiB transparent huge pages for the arrays (madvise), which spares a "
             "page walk every 4 KiB; false asks for 4 KiB pages only. Identity "
             "stream.huge_page_bytes says what the kernel granted"},
#ifdef STREAM_FAULT_INJECTION
    {.name = "fault",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(stream_params_t, fault),
     .def = "none",
     .choices = stream_fault_names,
     .help = "test module only: the bug to inject"},
    {.name = "fault_kernels",
     .type = RIGOR_PARAM_STRING,
     .offset = offsetof(stream_params_t, fault_kernels),
     .def = "",
     .help = "test module only: the kernels the fault applies to, comma-separated"},
#endif
};

static const char *const copy_path_names[] = {"plain", "nt", "memcpy"};

static const rigor_metric_t stream_metrics_table[] = {
    {.name = "nt_stores",
     .unit = "path",
     .better = RIGOR_NOT_A_FIGURE,
     .help = "the stores of the point's kernel: 0 plain, 1 non-temporal, 2 the C library's "
             "memcpy per thread (the copy's default, as stream.c's; it picks its own stores); "
             "none for dot, which stores nothing"},
    {.name = "threads",
     .unit = "threads",
     .better = RIGOR_NOT_A_FIGURE,
     .help = "the OpenMP team that ran the point's last window, read inside its parallel region"},
};

/* Everything but the kernel shapes the arrays, so it must not change within one run: the first
 * param that does, or NULL. */
static const char *param_varying_in_sweep(const rigor_points_t *points,
                                          const stream_params_t *base) {
  for (uint32_t i = 0; i < points->count; i++) {
    const stream_params_t *p = points->points[i];
    const char *differs = p->elements != base->elements         ? "elements"
                          : p->dtype != base->dtype             ? "dtype"
                          : p->threads != base->threads         ? "threads"
                          : p->nt_stores != base->nt_stores     ? "nt_stores"
                          : p->offset != base->offset           ? "offset"
                          : p->copy_stores != base->copy_stores ? "copy_stores"
                          : p->proc_bind != base->proc_bind     ? "proc_bind"
                          : p->huge_pages != base->huge_pages   ? "huge_pages"
                                                                : NULL;
    if (differs) return differs;
  }
  return NULL;
}

#define SWEEP_RULE                                                                                 \
  "varies within the sweep; it shapes the arrays of the whole run, so vary it in matrix: "         \
  "instead (only 'kernels' may be swept)"

/* What init would refuse for the params alone, said by `rigor validate` before any run. */
static int stream_check_params(const void *params, const rigor_points_t *points, char *err,
                               size_t errlen, const char **param) {
  const stream_params_t *base = params;
  const char *differs = param_varying_in_sweep(points, base);
  if (differs) {
    snprintf(err, errlen, SWEEP_RULE);
    *param = differs;
    return RIGOR_EINVAL;
  }
#ifdef STREAM_FAULT_INJECTION
  stream_fault_t fault;
  if (stream_fault_parse(base->fault, base->fault_kernels, &fault, err, errlen) != 0)
    return RIGOR_EINVAL;
#endif
  return 0;
}

/* The three arrays as allocate_arrays() rounds them, at the length init would choose. */
static uint64_t stream_footprint(const void *params, const rigor_points_t *points) {
  (void)points;
  const stream_params_t *p = params;
  stream_sizing_t sizing;
  stream_default_elements((stream_dtype_t)p->dtype, &sizing);
  const uint64_t elements = p->elements > 0 ? p->elements : sizing.elements;
  const uint64_t elsize = stream_dtype_size((stream_dtype_t)p->dtype);
  uint64_t total = 0;
  for (uint64_t k = 0; k < STREAM_N_ARRAYS; k++) {
    const uint64_t bytes = (elements + k * p->offset) * elsize;
    total += (bytes + STREAM_ALIGNMENT - 1) / STREAM_ALIGNMENT * STREAM_ALIGNMENT;
  }
  return total;
}

static int check_points_agree(rigor_ctx_t *ctx, const rigor_host_t *host,
                              const rigor_points_t *points, const stream_params_t *base) {
  const char *differs = param_varying_in_sweep(points, base);
  if (differs) return host->error(ctx, RIGOR_EINVAL, "stream: param '%s' " SWEEP_RULE, differs);
  return 0;
}

/* The run's CPUs: the host's (*bound set), else the process's own affinity. Returns the count
 * written. */
static int run_cpus(rigor_ctx_t *ctx, const rigor_host_t *host, int *cpus, int cap, bool *bound) {
  *bound = false;
  if (host->size >= offsetof(rigor_host_t, cpus) + sizeof host->cpus && host->cpus) {
    const int n = host->cpus(ctx, cpus, cap);
    *bound = n > 0;
    if (n > 0) return n < cap ? n : cap;
  }
  cpu_set_t set;
  int n = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE && n < cap; cpu++)
      if (CPU_ISSET(cpu, &set)) cpus[n++] = cpu;
  return n;
}

/* Interleaved arms are several instances in one process sharing one OpenMP thread pool: the
 * caller's mask is read before the first of them pins anything, and given back to the largest
 * team once the last pinned one is gone, so no arm unpins threads another still uses. */
static struct {
  int instances;
  int largest_team;
  cpu_set_t caller_affinity;
  const void *owner; /* the instance whose placement the threads have now */
} pinned;

/* Pins the team before first touch, so each page is placed by the thread that streams it. */
static int bind_team(rigor_ctx_t *ctx, stream_state_t *s, const int *cpus, int n_cpus) {
  s->thread_cpus = calloc((size_t)s->threads, sizeof *s->thread_cpus);
  if (!s->thread_cpus) return s->host->error(ctx, RIGOR_ENOMEM, "stream: out of memory");
  if (s->proc_bind != STREAM_BIND_NONE &&
      (pinned.instances > 0 || pthread_getaffinity_np(pthread_self(), sizeof pinned.caller_affinity,
                                                      &pinned.caller_affinity) == 0)) {
    s->team_pinned = true;
    pinned.instances++;
    pinned.owner = s;
    if (s->threads > pinned.largest_team) pinned.largest_team = s->threads;
  }
  const int rc = stream_bind_team(s->proc_bind, cpus, n_cpus, s->threads, s->thread_cpus);
  if (rc != 0)
    return s->host->error(ctx, RIGOR_EIO,
                          "stream: cannot pin %d OpenMP threads to the run's %d CPUs (%s); set "
                          "proc_bind: none to leave them to the OpenMP runtime",
                          s->threads, n_cpus, strerror(-rc));
  return 0;
}

/* The stores of every kernel: plain, non-temporal with nt_stores, and the copy's own path. */
static int choose_kernels(rigor_ctx_t *ctx, stream_state_t *s) {
  memcpy(s->kernels, stream_kernels_plain(s->dtype), sizeof s->kernels);
  const stream_store_path_t copy = stream_copy_path(s->copy_stores, s->nt_stores);
  if (copy == STREAM_PATH_MEMCPY) {
    s->kernels[STREAM_COPY] = stream_kernel_copy_memcpy(s->dtype);
    s->path[STREAM_COPY] = STREAM_PATH_MEMCPY;
  }
  if (!s->nt_stores && copy != STREAM_PATH_NT) return 0;
  char why[256];
  const stream_kernel_fn *nt = stream_kernels_nt(s->dtype, &s->nt_isa, why, sizeof why);
  if (!nt) {
    if (s->nt_stores) return s->host->error(ctx, RIGOR_ENOTSUP, "stream: %s", why);
    return s->host->error(ctx, RIGOR_ENOTSUP,
                          "stream: copy_stores: nt needs streaming stores, which this build or "
                          "CPU lacks; set copy_stores: auto or plain");
  }
  for (int k = 0; k < STREAM_N_KERNELS; k++) {
    const bool use = k == STREAM_COPY ? copy == STREAM_PATH_NT : s->nt_stores;
    if (use && nt[k]) {
      s->kernels[k] = nt[k];
      s->path[k] = STREAM_PATH_NT;
    }
  }
  return 0;
}

static int allocate_arrays(rigor_ctx_t *ctx, stream_state_t *s) {
  const size_t elsize = stream_dtype_size(s->dtype);
  void **views[STREAM_N_ARRAYS] = {&s->job.a, &s->job.b, &s->job.c};
  for (int k = 0; k < STREAM_N_ARRAYS; k++) {
    const size_t shift = (size_t)k * s->offset;
    if (s->elements > (SIZE_MAX - STREAM_ALIGNMENT) / elsize - shift)
      return s->host->error(ctx, RIGOR_ENOMEM,
                            "stream: cannot allocate array %s[]: %zu elements of %zu bytes "
                            "exceed the address space; lower 'elements'",
                            array_names[k], s->elements, elsize);
    const size_t bytes = (s->elements + shift) * elsize;
    const size_t rounded = (bytes + STREAM_ALIGNMENT - 1) / STREAM_ALIGNMENT * STREAM_ALIGNMENT;
    s->alloc[k] = aligned_alloc(STREAM_ALIGNMENT, rounded);
    if (!s->alloc[k])
      return s->host->error(ctx, RIGOR_ENOMEM,
                            "stream: cannot allocate array %s[] of %zu bytes (%zu elements of "
                            "%zu bytes); lower 'elements'",
                            array_names[k], rounded, s->elements, elsize);
    s->alloc_bytes[k] = rounded;
    /* Before first touch, which is when the kernel picks each page's size. */
    const int advised = stream_pages_advise(s->alloc[k], rounded, s->huge_pages);
    if (advised != 0) s->advise_error = advised;
    *views[k] = (char *)s->alloc[k] + shift * elsize;
  }
  return 0;
}

static void stream_free(stream_state_t *s) {
  for (int k = 0; k < STREAM_N_ARRAYS; k++)
    free(s->alloc[k]);
  if (pinned.owner == s) pinned.owner = NULL; /* a later instance may get this address */
  if (s->team_pinned && --pinned.instances == 0) {
    stream_bind_release(pinned.largest_team, &pinned.caller_affinity,
                        sizeof pinned.caller_affinity);
    pinned.largest_team = 0;
  }
  free(s->thread_cpus);
  free(s->run_cpus);
  free(s);
}

/* In words, when the arrays are too small for STREAM's rule: empty when they follow it. */
static void cache_warning(const stream_state_t *s, char *out, size_t cap) {
  const uint64_t llc = s->sizing.llc_bytes;
  const uint64_t array = (uint64_t)s->elements * stream_dtype_size(s->dtype);
  const double mib = 1.0 / (1 << 20);
  out[0] = '\0';
  if (llc == 0 || array >= 4 * llc) return;
  if (STREAM_N_ARRAYS * array <= llc)
    snprintf(out, cap,
             "the three arrays (%.0f MiB in all) fit in the %.0f MiB last-level cache: these "
             "figures are cache bandwidth, not memory bandwidth (STREAM's rule: each array at "
             "least 4 x the cache, elements: 0)",
             (double)(STREAM_N_ARRAYS * array) * mib, (double)llc * mib);
  else
    snprintf(out, cap,
             "each array (%.0f MiB) is under STREAM's rule of 4 x the %.0f MiB last-level "
             "cache: part of every kernel's traffic may be served by the cache",
             (double)array * mib, (double)llc * mib);
}

/* What the kernel granted at first touch, read back once: an advice is only a request. */
static void note_pages(rigor_ctx_t *ctx, stream_state_t *s) {
  s->huge_bytes = stream_pages_huge_bytes(s->alloc, s->alloc_bytes, STREAM_N_ARRAYS);
  size_t total = 0;
  for (int k = 0; k < STREAM_N_ARRAYS; k++)
    total += s->alloc_bytes[k];
  if (!s->huge_pages) return;
  const double mib = 1.0 / (1 << 20);
  if (s->advise_error)
    s->host->log(ctx, RIGOR_LOG_INFO,
                 "stream: huge pages asked for but not advised (%s; THP mode %s): the arrays "
                 "use whatever pages the kernel gives",
                 strerror(-s->advise_error), s->thp_mode);
  else if (s->huge_bytes >= 0 && (size_t)s->huge_bytes < total)
    s->host->log(ctx, RIGOR_LOG_INFO,
                 "stream: %.0f of the arrays' %.0f MiB lie in huge pages (THP mode %s)",
                 (double)s->huge_bytes * mib, (double)total * mib, s->thp_mode);
}

static int stream_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                       const rigor_points_t *points, void **state, rigor_work_t *work) {
  const stream_params_t *p = params;
  int rc = check_points_agree(ctx, host, points, p);
  if (rc) return rc;
  stream_state_t *s = calloc(1, sizeof *s);
  if (!s) return host->error(ctx, RIGOR_ENOMEM, "stream: out of memory");
  s->host = host;
  s->work = work;
  s->dtype = (stream_dtype_t)p->dtype;
  s->offset = (size_t)p->offset;
  s->nt_stores = p->nt_stores;
  s->nt_isa = "none";
  s->copy_stores = (stream_copy_stores_t)p->copy_stores;
  s->proc_bind = (stream_bind_t)p->proc_bind;
  s->huge_pages = p->huge_pages;
  stream_pages_thp_mode(s->thp_mode, sizeof s->thp_mode);
#ifdef STREAM_FAULT_INJECTION
  char why[256];
  if (stream_fault_parse(p->fault, p->fault_kernels, &s->fault, why, sizeof why) != 0) {
    stream_free(s);
    return host->error(ctx, RIGOR_EINVAL, "stream: %s", why);
  }
#endif
  stream_default_elements(s->dtype, &s->sizing);
  if (p->elements > 0) {
    s->sizing.elements = (size_t)p->elements;
    snprintf(s->sizing.rule, sizeof s->sizing.rule, "param 'elements'");
  }
  s->elements = s->sizing.elements;
  int *cpus = malloc(CPU_SETSIZE * sizeof *cpus);
  if (!cpus) {
    stream_free(s);
    return host->error(ctx, RIGOR_ENOMEM, "stream: out of memory");
  }
  bool bound;
  const int n_cpus = run_cpus(ctx, host, cpus, CPU_SETSIZE, &bound);
  s->threads = p->threads > 0 ? (int)p->threads : bound ? n_cpus : omp_get_max_threads();
  rc = choose_kernels(ctx, s);
  if (rc == 0) rc = bind_team(ctx, s, cpus, n_cpus);
  s->run_cpus = cpus;
  s->n_run_cpus = n_cpus;
  if (rc == 0) rc = allocate_arrays(ctx, s);
  if (rc) {
    stream_free(s);
    return rc;
  }
  s->job.n = s->elements;
  s->job.scalar = stream_replay_scalar(s->dtype);
  s->job.threads = s->threads;
  s->job.dot = &s->dot;
  s->job.team = &s->team;
  stream_kernels_first_touch(s->dtype, &s->job);
  note_pages(ctx, s);
  stream_replay_init(&s->replay, s->dtype, s->elements);
  char warning[320];
  cache_warning(s, warning, sizeof warning);
  if (warning[0]) host->log(ctx, RIGOR_LOG_WARN, "stream: %s", warning);
  *state = s;
  return 0;
}

/* Outside the window: replay what ran, and bring drifting values back near 1 (exactly, by a
 * power of two, arrays and model alike) before they can overflow or go subnormal. */
static void settle(stream_state_t *s) {
  stream_replay_settle(&s->replay);
  const double factor = stream_replay_rescale_factor(&s->replay);
  if (factor != 1.0) {
    stream_kernels_rescale(s->dtype, &s->job, factor);
    stream_replay_rescale(&s->replay, factor);
    s->rescales++;
  }
}

/* Another arm's init or window may have placed the shared threads its own way (thread k of T
 * goes to CPU k*P/T under spread): this instance's placement, the one its first touch used, comes
 * back before its window. */
static void own_the_team(stream_state_t *s) {
  if (!s->team_pinned || pinned.owner == s) return;
  stream_bind_team(s->proc_bind, s->run_cpus, s->n_run_cpus, s->threads, s->thread_cpus);
  pinned.owner = s;
}

static int stream_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx, (void)point;
  own_the_team(state);
  settle(state);
  return 0;
}

static int stream_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx;
  stream_state_t *s = state;
  const stream_kernel_t kernel = (stream_kernel_t)((const stream_params_t *)point)->kernel;
  const stream_kernel_fn fn = s->kernels[kernel];
  /* Only the warmup changes kernels without a prime in between; a window never does. */
  if (s->replay.pending >= 0 && s->replay.pending != (int)kernel) settle(s);
  own_the_team(s); /* a no-op after prime; only the warmup can get here without one */
#ifdef STREAM_FAULT_INJECTION
  const size_t executed = stream_fault_execute(&s->fault, kernel, fn, &s->job, n, s->dtype);
#else
  size_t executed = 0;
  for (uint64_t i = 0; i < n; i++)
    executed = fn(&s->job);
#endif
  stream_replay_log(&s->replay, kernel, n);
  stream_work_fill(s->work, kernel, executed, s->dtype);
  return 0;
}

static void describe(char *detail, size_t cap, size_t *used, const char *name,
                     const stream_array_check_t *r, size_t n, double expected) {
  if (*used >= cap) return;
  const int w =
      snprintf(detail + *used, cap - *used,
               "%s%s[]: %" PRIu64 " of %zu wrong%s, first at index %zu = %.10g "
               "(expected %.10g)",
               *used ? "; " : "", name, r->wrong, n, r->nonfinite ? " (non-finite values)" : "",
               r->first_bad, r->first_value, expected);
  *used = w < 0 ? cap : *used + (size_t)w;
}

static int stream_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  (void)ctx;
  stream_state_t *s = state;
  const stream_kernel_t kernel = (stream_kernel_t)((const stream_params_t *)point)->kernel;
  stream_replay_settle(&s->replay);
  const double tolerance = stream_check_tolerance(s->dtype);
  const double expected[STREAM_N_ARRAYS] = {s->replay.a, s->replay.b, s->replay.c};
  const void *arrays[STREAM_N_ARRAYS] = {s->job.a, s->job.b, s->job.c};
  size_t used = 0;
  *check = (rigor_check_t){.tolerance = tolerance};
  for (int k = 0; k < STREAM_N_ARRAYS; k++) {
    stream_array_check_t r;
    stream_check_array(arrays[k], s->dtype, s->elements, expected[k], tolerance, s->threads, &r);
    check->checked += s->elements;
    check->wrong += r.wrong;
    check->max_abs_err = r.max_abs_err > check->max_abs_err ? r.max_abs_err : check->max_abs_err;
    check->max_rel_err = r.max_rel_err > check->max_rel_err ? r.max_rel_err : check->max_rel_err;
    if (r.wrong)
      describe(check->detail, sizeof check->detail, &used, array_names[k], &r, s->elements,
               expected[k]);
  }
  if (kernel == STREAM_DOT && s->replay.last == STREAM_DOT) {
    /* Recursive summation of n positive terms is off by at most n ulps of the sum. */
    const double dot_tolerance = tolerance + (double)s->elements * __DBL_EPSILON__;
    const double abs_err = fabs(s->dot - s->replay.dot);
    const double rel_err = s->replay.dot != 0.0 ? abs_err / fabs(s->replay.dot) : abs_err;
    check->checked += 1;
    if (!isfinite(s->dot) || rel_err > dot_tolerance) {
      check->wrong += 1;
      if (used < sizeof check->detail)
        snprintf(check->detail + used, sizeof check->detail - used,
                 "%sdot: sum %.10g, expected %.10g (relative error %.3g > %.3g)", used ? "; " : "",
                 s->dot, s->replay.dot, rel_err, dot_tolerance);
    }
    if (isfinite(s->dot)) {
      check->max_abs_err = abs_err > check->max_abs_err ? abs_err : check->max_abs_err;
      check->max_rel_err = rel_err > check->max_rel_err ? rel_err : check->max_rel_err;
    }
  }
  return check->wrong ? RIGOR_EVALIDATE : 0;
}

static int stream_metrics_read(rigor_ctx_t *ctx, void *state, const void *point, double *values) {
  (void)ctx;
  const stream_state_t *s = state;
  const stream_kernel_t kernel = (stream_kernel_t)((const stream_params_t *)point)->kernel;
  values[0] = kernel == STREAM_DOT ? NAN : (double)s->path[kernel];
  values[1] = s->team > 0 ? (double)s->team : NAN;
  return 0;
}

static void stream_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  stream_free(state);
}

static int stream_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  const stream_state_t *s = state;
  int n = 0;
  n = rigor_kv_put(out, cap, n, "stream.variant", "%s", s->nt_stores ? "tuned" : "standard");
  n = rigor_kv_put(out, cap, n, "stream.nt_isa", "%s", s->nt_isa);
  n = rigor_kv_put(out, cap, n, "stream.loop_isa", "%s", stream_kernels_plain_isa());
  n = rigor_kv_put(out, cap, n, "stream.dtype", "%s", dtype_choices[s->dtype]);
  n = rigor_kv_put(out, cap, n, "stream.elements", "%zu", s->elements);
  n = rigor_kv_put(out, cap, n, "stream.elements_rule", "%s", s->sizing.rule);
  n = rigor_kv_put(out, cap, n, "stream.llc_bytes", "%" PRIu64, s->sizing.llc_bytes);
  n = rigor_kv_put(out, cap, n, "stream.array_bytes", "%zu",
                   s->elements * stream_dtype_size(s->dtype));
  n = rigor_kv_put(out, cap, n, "stream.offset", "%zu", s->offset);
  n = rigor_kv_put(out, cap, n, "stream.alignment", "%zu", STREAM_ALIGNMENT);
  n = rigor_kv_put(out, cap, n, "stream.threads", "%d", s->threads);
  n = rigor_kv_put(out, cap, n, "stream.copy_stores", "%s", copy_store_choices[s->copy_stores]);
  n = rigor_kv_put(out, cap, n, "stream.copy_path", "%s", copy_path_names[s->path[STREAM_COPY]]);
  n = rigor_kv_put(out, cap, n, "stream.proc_bind", "%s", bind_choices[s->proc_bind]);
  n = rigor_kv_put(out, cap, n, "stream.huge_pages", "%s", s->huge_pages ? "true" : "false");
  n = rigor_kv_put(out, cap, n, "stream.thp", "%s", s->thp_mode);
  if (s->huge_bytes >= 0)
    n = rigor_kv_put(out, cap, n, "stream.huge_page_bytes", "%lld", s->huge_bytes);
  char list[256];
  size_t used = 0;
  list[0] = '\0';
  for (int k = 0; k < s->threads && used < sizeof list; k++) {
    const int w =
        s->thread_cpus[k] >= 0
            ? snprintf(list + used, sizeof list - used, "%s%d", k ? "," : "", s->thread_cpus[k])
            : snprintf(list + used, sizeof list - used, "%s*", k ? "," : "");
    used = w < 0 ? sizeof list : used + (size_t)w;
  }
  n = rigor_kv_put(out, cap, n, "stream.thread_cpus", "%s", list);
  n = rigor_kv_put(out, cap, n, "stream.rescales", "%" PRIu64, s->rescales);
  char warning[320];
  cache_warning(s, warning, sizeof warning);
  if (warning[0]) n = rigor_kv_put(out, cap, n, "stream.warning", "%s", warning);
  return n;
}

static const rigor_plugin_t stream_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
#ifdef STREAM_FAULT_INJECTION
    .name = "stream_faults",
    .summary = "stream with injectable faults (test module)",
#else
    .name = "stream",
    .summary = "STREAM and BabelStream memory bandwidth kernels under OpenMP",
#endif
    .version = "1.0.0",
    .params = stream_params_table,
    .n_params = sizeof stream_params_table / sizeof stream_params_table[0],
    .params_size = sizeof(stream_params_t),
    .metrics = stream_metrics_table,
    .n_metrics = sizeof stream_metrics_table / sizeof stream_metrics_table[0],
    .init = stream_init,
    .prime = stream_prime,
    .run = stream_run,
    .validate = stream_validate,
    .fini = stream_fini,
    .identity = stream_identity,
    .metrics_read = stream_metrics_read,
    .check_params = stream_check_params,
    .footprint = stream_footprint,
    .capabilities = RIGOR_CAP_FOOTPRINT | RIGOR_CAP_DECLARED | RIGOR_CAP_CHECKS_PARAMS |
                    RIGOR_CAP_VALIDATES | RIGOR_CAP_IDENTITY | RIGOR_CAP_READS_METRICS,
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &stream_plugin : NULL;
}
