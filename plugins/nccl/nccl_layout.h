/* Element counts, buffer offsets, reported bytes and bus-bandwidth factors per collective, with
 * the semantics of nccl-tests (setupArgs and each test's GetCollByteCount/GetBw). */
#ifndef RIGOR_NCCL_LAYOUT_H
#define RIGOR_NCCL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "nccl_tables.h"

/* All counts and offsets in elements. The in-place offsets are per rank: in-place, a rank's send
 * data starts at recvbuff + send_inplace_offset * rank and its result at
 * recvbuff + recv_inplace_offset * rank. */
typedef struct nccl_layout {
  size_t send_count;
  size_t recv_count;
  size_t param_count; /* the count argument passed to NCCL */
  size_t send_inplace_offset;
  size_t recv_inplace_offset;
} nccl_layout_t;

/* Layout for `bytes` (the swept size) of elements of `elt_size` bytes over `nranks` ranks. The
 * per-rank count of the gather/scatter/alltoall family is rounded down to a 16-byte multiple. */
void nccl_layout_compute(nccl_coll_t coll, uint64_t bytes, size_t elt_size, int nranks,
                         nccl_layout_t *out);

/* Bytes one operation reports: max(send, recv) bytes, the size nccl-tests prints and divides by
 * time for algbw. */
uint64_t nccl_layout_bytes(const nccl_layout_t *l, size_t elt_size);

/* busbw / algbw for the collective: 2(n-1)/n for all_reduce; (n-1)/n for all_gather,
 * reduce_scatter, alltoall, gather, scatter; 1 for broadcast, reduce, sendrecv. */
double nccl_bus_factor(nccl_coll_t coll, int nranks);

/* Byte offset of operation `iter` in a buffer of `max_bytes`: operations step through the
 * allocation in strides of `op_bytes` so consecutive ones touch different memory. */
uint64_t nccl_rotation_offset(uint64_t op_bytes, uint64_t max_bytes, uint64_t iter);

#endif
