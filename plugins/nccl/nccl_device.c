#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nccl_errors.h"
#include "nccl_state.h"

#define NCCL_MARKS_INITIAL 1024

static uint64_t hostname_hash(void) {
  char name[256] = {0};
  gethostname(name, sizeof name - 1);
  uint64_t h = UINT64_C(1469598103934665603);
  for (const char *p = name; *p; p++)
    h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
  return h | 1; /* never zero, so an empty slot cannot match */
}

/* Ranks sharing this host, counted below this one: the host-local index, as nccl-tests uses to
 * spread processes over the GPUs of a node. */
static int local_rank(nccl_state_t *s, int *out) {
  uint64_t *hashes = calloc((size_t)s->host_nranks, sizeof *hashes);
  if (!hashes)
    return s->host->error(s->ctx, RIGOR_ENOMEM, "out of memory for %d host names", s->host_nranks);
  hashes[s->host_rank] = hostname_hash();
  int rc =
      s->host->allreduce(s->ctx, hashes, (size_t)s->host_nranks, RIGOR_DT_UINT64, RIGOR_RED_SUM);
  int local = 0;
  for (int r = 0; r < s->host_rank; r++)
    local += hashes[r] == hashes[s->host_rank];
  free(hashes);
  if (rc < 0) return s->host->error(s->ctx, rc, "allreduce of host names failed");
  *out = local;
  return 0;
}

/* Every rank learns the worst local status, so all of them stop together instead of leaving the
 * others waiting inside a collective. */
static int agree(nccl_state_t *s, int status) {
  int64_t worst = status;
  int rc = s->host->allreduce(s->ctx, &worst, 1, RIGOR_DT_INT64, RIGOR_RED_MIN);
  if (rc < 0) return s->host->error(s->ctx, rc, "allreduce of the start-up status failed");
  if (worst < 0 && status == 0)
    return s->host->error(s->ctx, (int)worst, "another rank failed to start (code %lld)",
                          (long long)worst);
  return (int)worst;
}

/* The fp8 types need NCCL 2.24 and a device of compute capability 9.0 or newer. */
static int check_fp8(nccl_state_t *s, const nccl_params_t *base) {
  if (base->dtype != NCCL_DT_F8E4M3 && base->dtype != NCCL_DT_F8E5M2) return 0;
  const char *name = nccl_dtype_names[base->dtype];
  if (NCCL_VERSION_CODE < NCCL_VERSION(2, 24, 0))
    return s->host->error(s->ctx, RIGOR_ENOTSUP, "%s needs NCCL 2.24 or newer (built with %d)",
                          name, NCCL_VERSION_CODE);
  for (int g = 0; g < s->n_gpus; g++) {
    int major = 0, minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, s->gpus[g].device);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, s->gpus[g].device);
    if (major < 9)
      return s->host->error(s->ctx, RIGOR_EUNAVAILABLE,
                            "%s needs compute capability 9.0 or newer; device %d has %d.%d", name,
                            s->gpus[g].device, major, minor);
  }
  return 0;
}

static int choose_devices(nccl_state_t *s, const nccl_params_t *base) {
  int local = 0;
  int rc = local_rank(s, &local);
  if (rc < 0) return rc;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EUNAVAILABLE, err, "cudaGetDeviceCount");
  int first = base->device >= 0 ? (int)base->device : local * s->n_gpus;
  if (first + s->n_gpus > count)
    return s->host->error(s->ctx, RIGOR_EUNAVAILABLE,
                          "needs CUDA devices %d..%d (gpus_per_process %d, local rank %d), "
                          "this node has %d",
                          first, first + s->n_gpus - 1, s->n_gpus, local, count);
  for (int g = 0; g < s->n_gpus; g++) {
    s->gpus[g].device = first + g;
    s->gpus[g].rank = s->host_rank * s->n_gpus + g;
  }
  return check_fp8(s, base);
}

static int allocate(nccl_state_t *s) {
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    cudaError_t err = cudaSetDevice(gpu->device);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EUNAVAILABLE, err, "cudaSetDevice");
    err = cudaStreamCreateWithFlags(&gpu->stream, cudaStreamNonBlocking);
    if (err != cudaSuccess)
      return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "cudaStreamCreateWithFlags");
    ncclResult_t res = ncclMemAlloc(&gpu->send, s->alloc_bytes);
    if (res == ncclSuccess) res = ncclMemAlloc(&gpu->recv, s->alloc_bytes);
    if (res != ncclSuccess) return nccl_fail_nccl(s, res, NULL, "ncclMemAlloc");
    err = cudaMemset(gpu->send, 0, s->alloc_bytes);
    if (err == cudaSuccess) err = cudaMemset(gpu->recv, 0, s->alloc_bytes);
    if (err == cudaSuccess && nccl_check_kernels_built())
      err = cudaMalloc((void **)&gpu->tally, sizeof *gpu->tally);
    if (err == cudaSuccess)
      err = cudaDeviceGetPCIBusId(gpu->pci_bus_id, (int)sizeof gpu->pci_bus_id, gpu->device);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "device buffer setup");
  }
  /* Host checks need a result-sized pair of pinned buffers; checks on the device need none. */
  if (s->host_checks) {
    cudaError_t err = cudaMallocHost(&s->staging, s->alloc_bytes);
    if (err == cudaSuccess) err = cudaMallocHost(&s->results, s->alloc_bytes);
    if (err != cudaSuccess) return nccl_fail_cuda(s, RIGOR_ENOMEM, err, "cudaMallocHost");
  }
  return nccl_marks_create(s, NCCL_MARKS_INITIAL);
}

static int share_unique_id(nccl_state_t *s, ncclUniqueId *id) {
  struct {
    int64_t status;
    ncclUniqueId id;
  } msg;
  memset(&msg, 0, sizeof msg);
  if (s->host_rank == 0) {
    ncclResult_t res = ncclGetUniqueId(&msg.id);
    if (res != ncclSuccess) msg.status = nccl_fail_nccl(s, res, NULL, "ncclGetUniqueId");
  }
  int rc = s->host->broadcast(s->ctx, &msg, sizeof msg, 0);
  if (rc < 0) return s->host->error(s->ctx, rc, "broadcast of the NCCL unique id failed");
  if (msg.status < 0)
    return s->host_rank == 0 ? (int)msg.status
                             : s->host->error(s->ctx, (int)msg.status,
                                              "rank 0 could not create the NCCL unique id");
  *id = msg.id;
  return 0;
}

static int init_comms(nccl_state_t *s, ncclUniqueId id) {
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  ncclResult_t res = ncclGroupStart();
  for (int g = 0; g < s->n_gpus && res == ncclSuccess; g++) {
    cudaError_t err = cudaSetDevice(s->gpus[g].device);
    if (err != cudaSuccess) {
      ncclGroupEnd();
      return nccl_fail_cuda(s, RIGOR_EPLUGIN, err, "cudaSetDevice");
    }
    res = ncclCommInitRankConfig(&s->gpus[g].comm, s->nranks, id, s->gpus[g].rank, &config);
  }
  ncclResult_t end = ncclGroupEnd();
  if (res == ncclSuccess) res = end;
  if (res != ncclSuccess) return nccl_fail_nccl(s, res, NULL, "ncclCommInitRankConfig");
  return 0;
}

int nccl_device_setup(nccl_state_t *s, const nccl_params_t *base) {
  int rc = agree(s, choose_devices(s, base));
  if (rc == 0) rc = agree(s, allocate(s));
  ncclUniqueId id;
  if (rc == 0) rc = share_unique_id(s, &id);
  if (rc == 0) rc = agree(s, init_comms(s, id));
  if (rc < 0) return rc;
  const char *bus_ids[64];
  int n = s->n_gpus < 64 ? s->n_gpus : 64;
  for (int g = 0; g < n; g++)
    bus_ids[g] = s->gpus[g].pci_bus_id;
  s->nvml = nccl_nvml_open(NCCL_NVML_LIBRARY, bus_ids, n);
  return 0;
}

void nccl_device_teardown(nccl_state_t *s) {
  nccl_nvml_close(s->nvml);
  s->nvml = NULL;
  nccl_graphs_destroy(s); /* before the communicators their operations belong to */
  for (int g = 0; g < s->n_gpus; g++) {
    nccl_gpu_t *gpu = &s->gpus[g];
    if (gpu->device >= 0) cudaSetDevice(gpu->device);
    if (gpu->comm && s->aborted)
      ncclCommAbort(gpu->comm);
    else if (gpu->comm)
      ncclCommDestroy(gpu->comm);
    if (gpu->send) ncclMemFree(gpu->send);
    if (gpu->recv) ncclMemFree(gpu->recv);
    if (gpu->tally) cudaFree(gpu->tally);
    if (gpu->stream) cudaStreamDestroy(gpu->stream);
    gpu->comm = NULL;
    gpu->send = gpu->recv = NULL;
    gpu->tally = NULL;
    gpu->stream = NULL;
  }
  nccl_marks_destroy(s);
  if (s->staging) cudaFreeHost(s->staging);
  if (s->results) cudaFreeHost(s->results);
  s->staging = s->results = NULL;
}
