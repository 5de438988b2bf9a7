#include "nccl_layout.h"

/* Per-rank share of `count`, rounded down to a multiple of 16 bytes. */
static size_t per_rank_aligned(size_t count, size_t elt_size, int nranks) {
  size_t per_16 = elt_size < 16 ? 16 / elt_size : 1;
  size_t share = count / (size_t)nranks;
  return share - share % per_16;
}

void nccl_layout_compute(nccl_coll_t coll, uint64_t bytes, size_t elt_size, int nranks,
                         nccl_layout_t *out) {
  size_t count = (size_t)(bytes / elt_size);
  size_t n = (size_t)nranks;
  size_t base = per_rank_aligned(count, elt_size, nranks);
  *out = (nccl_layout_t){count, count, count, 0, 0};
  switch (coll) {
  case NCCL_COLL_ALL_REDUCE:
  case NCCL_COLL_BROADCAST:
  case NCCL_COLL_REDUCE:
  case NCCL_COLL_SENDRECV:
  case NCCL_COLL_COUNT:
    break;
  case NCCL_COLL_ALL_GATHER:
  case NCCL_COLL_GATHER:
    *out = (nccl_layout_t){base, base * n, base, base, 0};
    break;
  case NCCL_COLL_REDUCE_SCATTER:
  case NCCL_COLL_SCATTER:
    *out = (nccl_layout_t){base * n, base, base, 0, base};
    break;
  case NCCL_COLL_ALLTOALL:
    *out = (nccl_layout_t){base * n, base * n, base, 0, 0};
    break;
  }
}

uint64_t nccl_layout_bytes(const nccl_layout_t *l, size_t elt_size) {
  size_t count = l->send_count > l->recv_count ? l->send_count : l->recv_count;
  return (uint64_t)count * elt_size;
}

double nccl_bus_factor(nccl_coll_t coll, int nranks) {
  double n = (double)nranks;
  switch (coll) {
  case NCCL_COLL_ALL_REDUCE:
    return 2.0 * (n - 1.0) / n;
  case NCCL_COLL_ALL_GATHER:
  case NCCL_COLL_REDUCE_SCATTER:
  case NCCL_COLL_ALLTOALL:
  case NCCL_COLL_GATHER:
  case NCCL_COLL_SCATTER:
    return (n - 1.0) / n;
  case NCCL_COLL_BROADCAST:
  case NCCL_COLL_REDUCE:
  case NCCL_COLL_SENDRECV:
  case NCCL_COLL_COUNT:
    break;
  }
  return 1.0;
}

uint64_t nccl_rotation_offset(uint64_t op_bytes, uint64_t max_bytes, uint64_t iter) {
  if (op_bytes == 0) return 0;
  uint64_t steps = max_bytes / op_bytes;
  if (steps == 0) return 0;
  return op_bytes * (iter % steps);
}
