#include "nccl_kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr uint64_t kMaxBlocks = 4096;

unsigned blocks_for(uint64_t count) {
  uint64_t blocks = (count + kThreads - 1) / kThreads;
  return (unsigned)(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

__device__ uint64_t load_element(const void *buf, uint32_t size, uint64_t i) {
  switch (size) {
  case 1:
    return static_cast<const uint8_t *>(buf)[i];
  case 2:
    return static_cast<const uint16_t *>(buf)[i];
  case 4:
    return static_cast<const uint32_t *>(buf)[i];
  default:
    return static_cast<const uint64_t *>(buf)[i];
  }
}

__device__ void store_element(void *buf, uint32_t size, uint64_t i, uint64_t bits) {
  switch (size) {
  case 1:
    static_cast<uint8_t *>(buf)[i] = static_cast<uint8_t>(bits);
    break;
  case 2:
    static_cast<uint16_t *>(buf)[i] = static_cast<uint16_t>(bits);
    break;
  case 4:
    static_cast<uint32_t *>(buf)[i] = static_cast<uint32_t>(bits);
    break;
  default:
    static_cast<uint64_t *>(buf)[i] = bits;
    break;
  }
}

__global__ void fill_kernel(nccl_gen_t g, int rank, void *dst) {
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.send_count; i += stride)
    store_element(dst, g.t.size, i, nccl_gen_input(&g, rank, i));
}

__global__ void reset_kernel(nccl_tally_t *tally) {
  nccl_tally_init(tally);
}

/* Each thread tallies its strided elements, then folds its tally into the shared one with
 * atomics, as nccl_tally_merge does; only threads that saw a mismatch touch it. */
__global__ void check_kernel(nccl_gen_t g, int rank, const void *recv, nccl_tally_t *tally) {
  uint64_t tolerance = nccl_gen_tolerance_ulp(&g);
  nccl_tally_t mine;
  nccl_tally_init(&mine);
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.recv_count; i += stride)
    nccl_tally_add(&mine, &g, rank, i, load_element(recv, g.t.size, i), tolerance);
  using ull = unsigned long long;
  if (mine.wrong > 0) {
    atomicAdd(reinterpret_cast<ull *>(&tally->wrong), static_cast<ull>(mine.wrong));
    atomicMin(reinterpret_cast<ull *>(&tally->first), static_cast<ull>(mine.first));
  }
  if (mine.max_abs_bits > 0)
    atomicMax(reinterpret_cast<ull *>(&tally->max_abs_bits), static_cast<ull>(mine.max_abs_bits));
  if (mine.max_rel_bits > 0)
    atomicMax(reinterpret_cast<ull *>(&tally->max_rel_bits), static_cast<ull>(mine.max_rel_bits));
}

} // namespace

extern "C" cudaError_t nccl_kernels_fill(const nccl_gen_t *g, int rank, void *dst,
                                         cudaStream_t stream) {
  if (g->send_count == 0) return cudaSuccess;
  fill_kernel<<<blocks_for(g->send_count), kThreads, 0, stream>>>(*g, rank, dst);
  return cudaGetLastError();
}

extern "C" cudaError_t nccl_kernels_check(const nccl_gen_t *g, int rank, const void *recv,
                                          nccl_tally_t *tally, cudaStream_t stream) {
  reset_kernel<<<1, 1, 0, stream>>>(tally);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess || g->recv_count == 0) return err;
  check_kernel<<<blocks_for(g->recv_count), kThreads, 0, stream>>>(*g, rank, recv, tally);
  return cudaGetLastError();
}
