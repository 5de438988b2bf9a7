#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl_data.h"
#include "nccl_errors.h"
#include "nccl_state.h"
#include "nccl_warm.h"

static const rigor_param_t nccl_params_table[] = {
    {.name = "collective",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(nccl_params_t, collective),
     .def = "all_reduce",
     .choices = nccl_coll_names,
     .help = "collective to time (sendrecv: ring, send to rank+1)"},
    {.name = "dtype",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(nccl_params_t, dtype),
     .def = "float",
     .choices = nccl_dtype_names,
     .help = "element type (f8e4m3/f8e5m2 need compute capability 9.0)"},
    {.name = "op",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(nccl_params_t, op),
     .def = "sum",
     .choices = nccl_op_names,
     .help = "reduction operator (all_reduce, reduce_scatter, reduce)"},
    {.name = "placement",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(nccl_params_t, placement),
     .def = "out",
     .choices = nccl_placement_names,
     .help = "out-of-place or in-place buffers (a sweep axis)"},
    {.name = "bytes",
     .type = RIGOR_PARAM_SIZE,
     .offset = offsetof(nccl_params_t, bytes),
     .def = "32MiB",
     .min = "0",
     .help = "message size as nccl-tests -b/-e: count = bytes / element size (a sweep axis)"},
    {.name = "root",
     .type = RIGOR_PARAM_INT,
     .offset = offsetof(nccl_params_t, root),
     .def = "0",
     .min = "0",
     .help = "root rank of broadcast, reduce, gather and scatter"},
    {.name = "gpus_per_process",
     .type = RIGOR_PARAM_INT,
     .offset = offsetof(nccl_params_t, gpus_per_process),
     .def = "1",
     .min = "1",
     .max = "64",
     .help = "GPUs driven by each process, one communicator each (nccl-tests -g)"},
    {.name = "device",
     .type = RIGOR_PARAM_INT,
     .offset = offsetof(nccl_params_t, device),
     .def = "-1",
     .min = "-1",
     .help = "first CUDA device of this process; -1: host-local rank x gpus_per_process"},
    {.name = "poll_timeout",
     .type = RIGOR_PARAM_DOUBLE,
     .offset = offsetof(nccl_params_t, poll_timeout),
     .def = "60",
     .min = "0",
     .help = "seconds to wait for completion before aborting the communicators; 0: forever"},
    {.name = "check_on",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(nccl_params_t, check_on),
     .def = "auto",
     .choices = nccl_check_on_names,
     .help = "where inputs are made and results judged: device (check kernels), host, or auto "
             "(device where the plugin was built with them)"},
    {.name = "graph",
     .type = RIGOR_PARAM_BOOL,
     .offset = offsetof(nccl_params_t, graph),
     .def = "false",
     .help = "launch each iteration's agg operations from a CUDA graph captured in prime "
             "(nccl-tests -G)"},
};

enum { NCCL_METRIC_CHECK_S = 0, NCCL_METRIC_GRAPH_OPS, NCCL_METRIC_GRAPH_CAPTURES };

static const rigor_metric_t nccl_metrics_table[] = {
    [NCCL_METRIC_CHECK_S] = {.name = "check_s",
                             .unit = "s",
                             .better = RIGOR_LOWER_IS_BETTER,
                             .help = "seconds the checks after the window took: inputs reloaded, "
                                     "one operation, the comparison"},
    [NCCL_METRIC_GRAPH_OPS] = {.name = "graph_ops",
                               .unit = "count",
                               .better = RIGOR_HIGHER_IS_BETTER,
                               .help = "operations per CUDA graph launch in the window; 0 without "
                                       "graphs"},
    [NCCL_METRIC_GRAPH_CAPTURES] = {.name = "graph_captures",
                                    .unit = "count",
                                    .better = RIGOR_LOWER_IS_BETTER,
                                    .help = "graph captures inside the window (the first window "
                                            "of a process with agg > 1), whose time includes them"},
};

static int refuse(rigor_ctx_t *ctx, const rigor_host_t *host, const char *fmt, long long a,
                  long long b) {
  return host->error(ctx, RIGOR_EINVAL, fmt, a, b);
}

/* The communicator is built once, so what shapes it must not vary across the sweep. */
static int check_points(rigor_ctx_t *ctx, const rigor_host_t *host, const nccl_params_t *base,
                        const rigor_points_t *points, int nranks) {
  for (uint32_t i = 0; i < points->count; i++) {
    const nccl_params_t *p = points->points[i];
    if (p->gpus_per_process != base->gpus_per_process || p->device != base->device)
      return refuse(ctx, host, "gpus_per_process and device cannot be swept (point %lld of %lld)",
                    (long long)i, (long long)points->count);
    /* NCCL answers ncclAvg on fp8 with "invalid argument": say so before any device work. */
    bool fp8 = p->dtype == NCCL_DT_F8E4M3 || p->dtype == NCCL_DT_F8E5M2;
    if (fp8 && p->op == NCCL_OP_AVG && nccl_coll_reduces((nccl_coll_t)p->collective))
      return host->error(ctx, RIGOR_EINVAL,
                         "op avg with dtype %s: NCCL has no average for fp8 types (point %u)",
                         nccl_dtype_names[p->dtype], i);
    if (nccl_coll_rooted((nccl_coll_t)p->collective) && p->root >= nranks)
      return refuse(ctx, host, "root %lld is not a rank of a %lld-rank communicator",
                    (long long)p->root, (long long)nranks);
    if (p->check_on == NCCL_CHECK_DEVICE && !nccl_check_kernels_built())
      return host->error(ctx, RIGOR_EINVAL,
                         "check_on device: this nccl plugin was built without its check kernels "
                         "(no CUDA compiler at build time); use check_on auto or host (point %u)",
                         i);
  }
  return 0;
}

static void destroy(nccl_state_t *s) {
  nccl_device_teardown(s);
  free(s->warm);
  free(s->warm_points);
  free(s->gpus);
  free(s);
}

static int nccl_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                     const rigor_points_t *points, void **state, rigor_work_t *work) {
  const nccl_params_t *base = params;
  int n_gpus = (int)base->gpus_per_process;
  int nranks = host->nranks(ctx) * n_gpus;
  rigor_points_t only_base = {1, &params};
  if (!points || points->count == 0) points = &only_base;
  int rc = check_points(ctx, host, base, points, nranks);
  if (rc < 0) return rc;
  nccl_state_t *s = calloc(1, sizeof *s);
  nccl_gpu_t *gpus = calloc((size_t)n_gpus, sizeof *gpus);
  if (!s || !gpus) {
    free(s);
    free(gpus);
    return host->error(ctx, RIGOR_ENOMEM, "out of memory for the state of %d GPUs", n_gpus);
  }
  *s = (nccl_state_t){.ctx = ctx,
                      .host = host,
                      .work = work,
                      .gpus = gpus,
                      .n_gpus = n_gpus,
                      .host_rank = host->rank(ctx),
                      .host_nranks = host->nranks(ctx),
                      .nranks = nranks,
                      .poll_timeout = base->poll_timeout,
                      .staged_rank = -1,
                      .check_s = NAN};
  for (int g = 0; g < n_gpus; g++)
    gpus[g].device = -1;
  for (uint32_t i = 0; i < points->count; i++) {
    const nccl_params_t *p = points->points[i];
    if (p->bytes > s->max_bytes) s->max_bytes = p->bytes;
    if (nccl_check_where(p) == NCCL_CHECK_HOST) s->host_checks = true;
  }
  s->alloc_bytes = s->max_bytes > 4096 ? s->max_bytes : 4096;
  rc = nccl_graphs_create(s, points);
  if (rc == 0) rc = nccl_device_setup(s, base);
  if (rc < 0) {
    destroy(s);
    return rc;
  }
  *state = s;
  return 0;
}

static void point_case(const nccl_state_t *s, const nccl_params_t *p, nccl_case_t *c) {
  nccl_case_init(c, (nccl_coll_t)p->collective, (nccl_dtype_id_t)p->dtype, (nccl_op_t)p->op,
                 (int)p->root, s->nranks, p->bytes);
}

static int nccl_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx;
  nccl_state_t *s = state;
  const nccl_params_t *p = point;
  nccl_case_t c;
  point_case(s, p, &c);
  s->work->bytes = nccl_layout_bytes(&c.layout, c.dtype->size);
  s->work->bus_factor = nccl_bus_factor(c.coll, s->nranks);
  s->paired_marks = false;
  s->check_s = NAN;
  int rc = nccl_inputs_load(s, p, &c);
  s->op_index = 0;
  if (rc == 0) rc = nccl_launch(s, p, 1);
  if (rc == 0) rc = nccl_wait(s);
  s->op_index = 0;
  if (rc == 0) rc = nccl_graph_prime(s, point);
  return rc;
}

static int nccl_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx;
  nccl_state_t *s = state;
  if (s->graph_now) return nccl_graph_run(s, point, n);
  return nccl_launch(s, point, n);
}

static int nccl_complete(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx, (void)point;
  return nccl_wait(state);
}

static void describe(const nccl_state_t *s, const nccl_case_t *c, const nccl_params_t *p,
                     int first_rank, const nccl_check_result_t *res, rigor_check_t *check) {
  if (res->have_first)
    snprintf(check->detail, sizeof check->detail,
             "%s %s %s %s-place: rank %d element %zu is 0x%llx, expected 0x%llx",
             nccl_coll_names[c->coll], c->dtype->name, nccl_op_names[c->op],
             nccl_placement_names[p->placement], first_rank, res->first_index,
             (unsigned long long)res->first_got, (unsigned long long)res->first_expected);
  else if (check->wrong > 0)
    snprintf(check->detail, sizeof check->detail, "%llu wrong elements on other ranks",
             (unsigned long long)check->wrong);
  else
    snprintf(check->detail, sizeof check->detail, "%d ranks, tolerance %llu ULP, checked on the %s",
             s->nranks, (unsigned long long)res->tolerance_ulp,
             nccl_check_where(p) == NCCL_CHECK_DEVICE ? "device" : "host");
}

static int nccl_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  nccl_state_t *s = state;
  const nccl_params_t *p = point;
  uint64_t t0 = s->host->now_ns(ctx);
  nccl_case_t c;
  point_case(s, p, &c);
  int rc = nccl_inputs_load(s, p, &c);
  s->op_index = 0;
  if (rc == 0) rc = p->graph ? nccl_graph_once(s, p) : nccl_launch(s, p, 1);
  nccl_check_result_t res = {0};
  int first_rank = -1;
  if (rc == 0) rc = nccl_results_check(s, p, &c, &res, &first_rank);
  if (rc < 0) return rc;
  int64_t counts[2] = {(int64_t)res.checked, (int64_t)res.wrong};
  double errors[2] = {res.max_abs_err, res.max_rel_err};
  rc = s->host->allreduce(ctx, counts, 2, RIGOR_DT_INT64, RIGOR_RED_SUM);
  if (rc == 0) rc = s->host->allreduce(ctx, errors, 2, RIGOR_DT_DOUBLE, RIGOR_RED_MAX);
  if (rc < 0) return s->host->error(ctx, rc, "allreduce of check results failed");
  check->checked = (uint64_t)counts[0];
  check->wrong = (uint64_t)counts[1];
  check->max_abs_err = errors[0];
  check->max_rel_err = errors[1];
  check->tolerance = (double)res.tolerance_ulp;
  describe(s, &c, p, first_rank, &res, check);
  double took = (double)(s->host->now_ns(ctx) - t0) * 1e-9;
  s->check_s = isnan(s->check_s) ? took : s->check_s + took;
  return check->wrong > 0 ? RIGOR_EVALIDATE : 0;
}

static int nccl_metrics_read(rigor_ctx_t *ctx, void *state, const void *point, double *values) {
  (void)ctx, (void)point;
  const nccl_state_t *s = state;
  values[NCCL_METRIC_CHECK_S] = s->check_s;
  values[NCCL_METRIC_GRAPH_OPS] = s->graph_now ? (double)s->graph_now->ops : 0.0;
  values[NCCL_METRIC_GRAPH_CAPTURES] = (double)s->graph_captures;
  return 0;
}

/* timing.warmup_sizes powers_of_two: nccl-tests' warm sizes (nccl_warm.h), kept until fini. */
static int nccl_warm_points(rigor_ctx_t *ctx, void *state, rigor_warmup_sizes_t sizes,
                            const rigor_points_t *points, rigor_points_t *warm) {
  nccl_state_t *s = state;
  if (sizes != RIGOR_WARMUP_POWERS_OF_TWO)
    return s->host->error(ctx, RIGOR_ENOTSUP, "timing.warmup_sizes %d is not one nccl knows",
                          (int)sizes);
  const nccl_params_t *const *sweep = (const nccl_params_t *const *)points->points;
  uint32_t n = nccl_warm_schedule(sweep, points->count, NULL, 0);
  free(s->warm);
  free(s->warm_points);
  s->warm = calloc(n ? n : 1, sizeof *s->warm);
  s->warm_points = calloc(n ? n : 1, sizeof *s->warm_points);
  if (!s->warm || !s->warm_points)
    return s->host->error(ctx, RIGOR_ENOMEM, "out of memory for %u warm sizes", n);
  s->n_warm = nccl_warm_schedule(sweep, points->count, s->warm, n);
  for (uint32_t i = 0; i < s->n_warm; i++)
    s->warm_points[i] = &s->warm[i];
  *warm = (rigor_points_t){s->n_warm, s->warm_points};
  return 0;
}

static void nccl_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  destroy(state);
}

static int nccl_telemetry(rigor_ctx_t *ctx, void *state, rigor_telemetry_value_t *out, int cap) {
  (void)ctx;
  return nccl_nvml_sample(((nccl_state_t *)state)->nvml, out, cap);
}

/* What init refuses for the params alone, said by `rigor validate` before any run; the root's
 * rank depends on the launch and stays with init. */
static int nccl_check_params(const void *params, const rigor_points_t *points, char *err,
                             size_t errlen, const char **param) {
  const nccl_params_t *base = params;
  for (uint32_t i = 0; i < points->count; i++) {
    const nccl_params_t *p = points->points[i];
    if (p->gpus_per_process != base->gpus_per_process || p->device != base->device) {
      *param = p->gpus_per_process != base->gpus_per_process ? "gpus_per_process" : "device";
      snprintf(err, errlen,
               "cannot be swept: it shapes the communicator of the whole run; vary "
               "it in matrix: instead");
      return RIGOR_EINVAL;
    }
    bool fp8 = p->dtype == NCCL_DT_F8E4M3 || p->dtype == NCCL_DT_F8E5M2;
    if (fp8 && p->op == NCCL_OP_AVG && nccl_coll_reduces((nccl_coll_t)p->collective)) {
      *param = "op";
      snprintf(err, errlen, "avg with dtype %s: NCCL has no average for fp8 types",
               nccl_dtype_names[p->dtype]);
      return RIGOR_EINVAL;
    }
    if (p->check_on == NCCL_CHECK_DEVICE && !nccl_check_kernels_built()) {
      *param = "check_on";
      snprintf(err, errlen,
               "device: this nccl plugin was built without its check kernels (no "
               "CUDA compiler at build time); use check_on auto or host");
      return RIGOR_EINVAL;
    }
  }
  return 0;
}

static const rigor_plugin_t nccl_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "nccl",
    .version = "1.1.0",
    .summary = "NCCL collectives with nccl-tests semantics: sizes, busbw, exact checks",
    .params = nccl_params_table,
    .n_params = sizeof nccl_params_table / sizeof nccl_params_table[0],
    .params_size = sizeof(nccl_params_t),
    .metrics = nccl_metrics_table,
    .n_metrics = sizeof nccl_metrics_table / sizeof nccl_metrics_table[0],
    .init = nccl_init,
    .prime = nccl_prime,
    .run = nccl_run,
    .complete = nccl_complete,
    .validate = nccl_validate,
    .fini = nccl_fini,
    .identity = nccl_identity,
    .telemetry = nccl_telemetry,
    .mark = nccl_mark,
    .mark_read = nccl_mark_read,
    .metrics_read = nccl_metrics_read,
    .warm_points = nccl_warm_points,
    .check_params = nccl_check_params,
    .capabilities = RIGOR_CAP_DECLARED | RIGOR_CAP_CHECKS_PARAMS | RIGOR_CAP_ASYNC | RIGOR_CAP_VALIDATES |
                    RIGOR_CAP_DEVICE_MARKS | RIGOR_CAP_READS_METRICS | RIGOR_CAP_IDENTITY |
                    RIGOR_CAP_TELEMETRY | RIGOR_CAP_WARMUP_SIZES,
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &nccl_plugin : NULL;
}
