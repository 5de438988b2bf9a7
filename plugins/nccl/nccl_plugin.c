#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl_data.h"
#include "nccl_errors.h"
#include "nccl_state.h"

#define NCCL_POISON_BYTE 0xA5

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
  }
  return 0;
}

static void destroy(nccl_state_t *s) {
  nccl_device_teardown(s);
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
                      .staged_rank = -1};
  for (int g = 0; g < n_gpus; g++)
    gpus[g].device = -1;
  for (uint32_t i = 0; i < points->count; i++) {
    const nccl_params_t *p = points->points[i];
    if (p->bytes > s->max_bytes) s->max_bytes = p->bytes;
  }
  s->alloc_bytes = s->max_bytes > 4096 ? s->max_bytes : 4096;
  rc = nccl_device_setup(s, base);
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

/* Writes each GPU's inputs where the operation reads them, over a poisoned result region, so a
 * collective that writes nothing cannot pass on the previous window's output. */
static int load_inputs(nccl_state_t *s, const nccl_params_t *p, const nccl_case_t *c) {
  size_t elt = c->dtype->size;
  bool in_place = p->placement == NCCL_PLACE_IN;
  uint64_t op_bytes = nccl_layout_bytes(&c->layout, elt);
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    nccl_params_t key = *p;
    key.placement = 0;
    if (s->staged_rank != gpu->rank || memcmp(&key, &s->staged, sizeof key) != 0) {
      nccl_data_fill(c, gpu->rank, s->staging);
      s->staged = key;
      s->staged_rank = gpu->rank;
    }
    char *dst = in_place
                    ? (char *)gpu->recv + c->layout.send_inplace_offset * elt * (size_t)gpu->rank
                    : (char *)gpu->send;
    cudaError_t err = cudaSetDevice(gpu->device);
    if (err == cudaSuccess) err = cudaMemset(gpu->recv, NCCL_POISON_BYTE, op_bytes);
    if (err == cudaSuccess)
      err = cudaMemcpy(dst, s->staging, c->layout.send_count * elt, cudaMemcpyHostToDevice);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "loading inputs");
  }
  return 0;
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
  int rc = load_inputs(s, p, &c);
  s->op_index = 0;
  if (rc == 0) rc = nccl_launch(s, p, 1);
  if (rc == 0) rc = nccl_wait(s);
  s->op_index = 0;
  return rc;
}

static int nccl_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx;
  return nccl_launch(state, point, n);
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
    snprintf(check->detail, sizeof check->detail, "%d ranks, tolerance %llu ULP", s->nranks,
             (unsigned long long)res->tolerance_ulp);
}

static int nccl_validate(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check) {
  nccl_state_t *s = state;
  const nccl_params_t *p = point;
  nccl_case_t c;
  point_case(s, p, &c);
  size_t elt = c.dtype->size;
  int rc = load_inputs(s, p, &c);
  s->op_index = 0;
  if (rc == 0) rc = nccl_launch(s, p, 1);
  if (rc == 0) rc = nccl_wait(s);
  if (rc < 0) return rc;
  nccl_check_result_t res = {0};
  int first_rank = -1;
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    size_t offset =
        p->placement == NCCL_PLACE_IN ? c.layout.recv_inplace_offset * elt * (size_t)gpu->rank : 0;
    cudaError_t err = cudaSetDevice(gpu->device);
    if (err == cudaSuccess)
      err = cudaMemcpy(s->results, (char *)gpu->recv + offset, c.layout.recv_count * elt,
                       cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "reading results");
    bool had_first = res.have_first;
    nccl_data_check(&c, gpu->rank, s->results, &res);
    if (!had_first && res.have_first) first_rank = gpu->rank;
  }
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
  return check->wrong > 0 ? RIGOR_EVALIDATE : 0;
}

static void nccl_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  destroy(state);
}

static int nccl_telemetry(rigor_ctx_t *ctx, void *state, rigor_telemetry_value_t *out, int cap) {
  (void)ctx;
  return nccl_nvml_sample(((nccl_state_t *)state)->nvml, out, cap);
}

static const rigor_plugin_t nccl_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "nccl",
    .version = "1.0.0",
    .summary = "NCCL collectives with nccl-tests semantics: sizes, busbw, exact checks",
    .params = nccl_params_table,
    .n_params = sizeof nccl_params_table / sizeof nccl_params_table[0],
    .params_size = sizeof(nccl_params_t),
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
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &nccl_plugin : NULL;
}
