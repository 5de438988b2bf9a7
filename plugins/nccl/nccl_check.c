#include <string.h>

#include "nccl_elem.h"
#include "nccl_errors.h"
#include "nccl_state.h"
#ifdef NCCL_HAVE_KERNELS
#include "nccl_kernels.h"
#endif

#define NCCL_POISON_BYTE 0xA5

bool nccl_check_kernels_built(void) {
#ifdef NCCL_HAVE_KERNELS
  return true;
#else
  return false;
#endif
}

nccl_check_on_t nccl_check_where(const nccl_params_t *p) {
  if (p->check_on != NCCL_CHECK_AUTO) return (nccl_check_on_t)p->check_on;
  return nccl_check_kernels_built() ? NCCL_CHECK_DEVICE : NCCL_CHECK_HOST;
}

/* Where the operation reads rank `rank`'s inputs, and where its result lands. */
static char *send_region(const nccl_gpu_t *gpu, const nccl_params_t *p, const nccl_case_t *c) {
  size_t elt = c->dtype->size;
  if (p->placement != NCCL_PLACE_IN) return gpu->send;
  return (char *)gpu->recv + c->layout.send_inplace_offset * elt * (size_t)gpu->rank;
}

static char *recv_region(const nccl_gpu_t *gpu, const nccl_params_t *p, const nccl_case_t *c) {
  size_t elt = c->dtype->size;
  if (p->placement != NCCL_PLACE_IN) return gpu->recv;
  return (char *)gpu->recv + c->layout.recv_inplace_offset * elt * (size_t)gpu->rank;
}

/* The host's inputs go through one pinned staging buffer, refilled only when the point or the
 * rank changes; each copy is waited for before the buffer may be refilled. */
static cudaError_t load_from_host(nccl_state_t *s, nccl_gpu_t *gpu, const nccl_params_t *p,
                                  const nccl_case_t *c) {
  nccl_params_t key = *p;
  key.placement = 0;
  key.check_on = 0;
  key.graph = false;
  if (s->staged_rank != gpu->rank || memcmp(&key, &s->staged, sizeof key) != 0) {
    nccl_data_fill(c, gpu->rank, s->staging);
    s->staged = key;
    s->staged_rank = gpu->rank;
  }
  cudaError_t err =
      cudaMemcpyAsync(send_region(gpu, p, c), s->staging, c->layout.send_count * c->dtype->size,
                      cudaMemcpyHostToDevice, gpu->stream);
  return err == cudaSuccess ? cudaStreamSynchronize(gpu->stream) : err;
}

int nccl_inputs_load(nccl_state_t *s, const nccl_params_t *p, const nccl_case_t *c) {
  bool on_device = nccl_check_where(p) == NCCL_CHECK_DEVICE;
  uint64_t op_bytes = nccl_layout_bytes(&c->layout, c->dtype->size);
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    /* Poisoned first, so a collective that writes nothing cannot pass on an earlier output. */
    cudaError_t err = cudaSetDevice(gpu->device);
    if (err == cudaSuccess)
      err = cudaMemsetAsync(gpu->recv, NCCL_POISON_BYTE, op_bytes, gpu->stream);
#ifdef NCCL_HAVE_KERNELS
    if (err == cudaSuccess && on_device)
      err = nccl_kernels_fill(&c->gen, gpu->rank, send_region(gpu, p, c), gpu->stream);
#endif
    if (err == cudaSuccess && !on_device) err = load_from_host(s, gpu, p, c);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "loading inputs");
  }
  return 0;
}

static int check_on_host(nccl_state_t *s, const nccl_params_t *p, const nccl_case_t *c,
                         nccl_check_result_t *res, int *first_rank) {
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    cudaError_t err = cudaSetDevice(gpu->device);
    if (err == cudaSuccess)
      err = cudaMemcpy(s->results, recv_region(gpu, p, c), c->layout.recv_count * c->dtype->size,
                       cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "reading results");
    bool had_first = res->have_first;
    nccl_data_check(c, gpu->rank, s->results, res);
    if (!had_first && res->have_first) *first_rank = gpu->rank;
  }
  return 0;
}

#ifdef NCCL_HAVE_KERNELS
/* The kernels judge each result where it landed; only their tallies, and the first wrong element
 * when there is one, come back. */
static int check_on_device(nccl_state_t *s, const nccl_params_t *p, const nccl_case_t *c,
                           nccl_check_result_t *res, int *first_rank) {
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    if (!nccl_data_rank_checked(c, gpu->rank)) continue;
    cudaError_t err = cudaSetDevice(gpu->device);
    if (err == cudaSuccess)
      err = nccl_kernels_check(&c->gen, gpu->rank, recv_region(gpu, p, c), gpu->tally, gpu->stream);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "check kernel");
  }
  int rc = nccl_wait(s);
  if (rc < 0) return rc;
  size_t elt = c->dtype->size;
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    nccl_tally_t t;
    nccl_tally_init(&t);
    unsigned char first[8] = {0};
    uint64_t checked = 0;
    if (nccl_data_rank_checked(c, gpu->rank)) {
      checked = c->layout.recv_count;
      cudaError_t err = cudaSetDevice(gpu->device);
      if (err == cudaSuccess) err = cudaMemcpy(&t, gpu->tally, sizeof t, cudaMemcpyDeviceToHost);
      if (err == cudaSuccess && t.wrong > 0)
        err =
            cudaMemcpy(first, recv_region(gpu, p, c) + t.first * elt, elt, cudaMemcpyDeviceToHost);
      if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "reading the check");
    }
    bool had_first = res->have_first;
    nccl_data_add_tally(c, gpu->rank, checked, &t, nccl_elem_load(c->dtype, first, 0), res);
    if (!had_first && res->have_first) *first_rank = gpu->rank;
  }
  return 0;
}
#endif

int nccl_results_check(nccl_state_t *s, const nccl_params_t *p, const nccl_case_t *c,
                       nccl_check_result_t *res, int *first_rank) {
#ifdef NCCL_HAVE_KERNELS
  if (nccl_check_where(p) == NCCL_CHECK_DEVICE) return check_on_device(s, p, c, res, first_rank);
#endif
  int rc = nccl_wait(s);
  return rc < 0 ? rc : check_on_host(s, p, c, res, first_rank);
}
