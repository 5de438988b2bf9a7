#include "nccl_data.h"
#include "nccl_errors.h"
#include "nccl_state.h"

_Static_assert(ncclInt8 == 0 && ncclUint8 == 1 && ncclInt32 == 2 && ncclUint32 == 3 &&
                   ncclInt64 == 4 && ncclUint64 == 5 && ncclFloat16 == 6 && ncclFloat32 == 7 &&
                   ncclFloat64 == 8 && ncclBfloat16 == 9,
               "nccl_tables.c data type codes must match nccl.h");
_Static_assert(ncclSum == 0 && ncclProd == 1 && ncclMax == 2 && ncclMin == 3 && ncclAvg == 4,
               "nccl_tables.c op codes must match nccl.h");

void nccl_point_layout(const nccl_state_t *s, const nccl_params_t *p, nccl_layout_t *layout) {
  const nccl_dtype_t *t = nccl_dtype_get(p->dtype);
  nccl_layout_compute((nccl_coll_t)p->collective, p->bytes, t->size, s->nranks, layout);
}

#if NCCL_VERSION_CODE < NCCL_VERSION(2, 28, 0)
/* Before 2.28 NCCL had no alltoall, gather or scatter; they are groups of point-to-point calls. */
static ncclResult_t p2p_alltoall(const char *send, char *recv, size_t count, size_t elt,
                                 ncclDataType_t type, int nranks, ncclComm_t comm,
                                 cudaStream_t stream) {
  ncclResult_t res = ncclGroupStart();
  for (int r = 0; r < nranks && res == ncclSuccess; r++) {
    res = ncclSend(send + (size_t)r * count * elt, count, type, r, comm, stream);
    if (res == ncclSuccess)
      res = ncclRecv(recv + (size_t)r * count * elt, count, type, r, comm, stream);
  }
  ncclResult_t end = ncclGroupEnd();
  return res != ncclSuccess ? res : end;
}

static ncclResult_t p2p_rooted(bool gather, const char *send, char *recv, size_t count, size_t elt,
                               ncclDataType_t type, int root, int rank, int nranks, ncclComm_t comm,
                               cudaStream_t stream) {
  ncclResult_t res = ncclGroupStart();
  if (res == ncclSuccess)
    res = gather ? ncclSend(send, count, type, root, comm, stream)
                 : ncclRecv(recv, count, type, root, comm, stream);
  for (int r = 0; rank == root && r < nranks && res == ncclSuccess; r++)
    res = gather ? ncclRecv(recv + (size_t)r * count * elt, count, type, r, comm, stream)
                 : ncclSend(send + (size_t)r * count * elt, count, type, r, comm, stream);
  ncclResult_t end = ncclGroupEnd();
  return res != ncclSuccess ? res : end;
}
#endif

static ncclResult_t issue(const nccl_state_t *s, const nccl_gpu_t *gpu, const nccl_params_t *p,
                          const nccl_layout_t *l, uint64_t shift) {
  const nccl_dtype_t *t = nccl_dtype_get(p->dtype);
  bool in_place = p->placement == NCCL_PLACE_IN;
  char *recv = (char *)gpu->recv + shift;
  char *send = in_place ? recv : (char *)gpu->send + shift;
  if (in_place) {
    send += l->send_inplace_offset * t->size * (size_t)gpu->rank;
    recv += l->recv_inplace_offset * t->size * (size_t)gpu->rank;
  }
  size_t count = l->param_count;
  ncclDataType_t type = (ncclDataType_t)t->nccl_code;
  ncclRedOp_t op = (ncclRedOp_t)nccl_op_codes[p->op];
  int root = (int)p->root;
  ncclComm_t comm = gpu->comm;
  cudaStream_t st = gpu->stream;
  switch ((nccl_coll_t)p->collective) {
  case NCCL_COLL_ALL_REDUCE:
    return ncclAllReduce(send, recv, count, type, op, comm, st);
  case NCCL_COLL_ALL_GATHER:
    return ncclAllGather(send, recv, count, type, comm, st);
  case NCCL_COLL_REDUCE_SCATTER:
    return ncclReduceScatter(send, recv, count, type, op, comm, st);
  case NCCL_COLL_BROADCAST:
    return ncclBroadcast(send, recv, count, type, root, comm, st);
  case NCCL_COLL_REDUCE:
    return ncclReduce(send, recv, count, type, op, root, comm, st);
  case NCCL_COLL_SENDRECV: {
    ncclResult_t res = ncclGroupStart();
    if (res == ncclSuccess)
      res = ncclSend(send, count, type, (gpu->rank + 1) % s->nranks, comm, st);
    if (res == ncclSuccess)
      res = ncclRecv(recv, count, type, (gpu->rank - 1 + s->nranks) % s->nranks, comm, st);
    ncclResult_t end = ncclGroupEnd();
    return res != ncclSuccess ? res : end;
  }
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
  case NCCL_COLL_ALLTOALL:
    return ncclAlltoAll(send, recv, count, type, comm, st);
  case NCCL_COLL_GATHER:
    return ncclGather(send, recv, count, type, root, comm, st);
  case NCCL_COLL_SCATTER:
    return ncclScatter(send, recv, count, type, root, comm, st);
#else
  case NCCL_COLL_ALLTOALL:
    return p2p_alltoall(send, recv, count, t->size, type, s->nranks, comm, st);
  case NCCL_COLL_GATHER:
    return p2p_rooted(true, send, recv, count, t->size, type, root, gpu->rank, s->nranks, comm, st);
  case NCCL_COLL_SCATTER:
    return p2p_rooted(false, send, recv, count, t->size, type, root, gpu->rank, s->nranks, comm,
                      st);
#endif
  case NCCL_COLL_COUNT:
    break;
  }
  return ncclInvalidArgument;
}

int nccl_launch(nccl_state_t *s, const nccl_params_t *p, uint64_t n) {
  nccl_layout_t l;
  nccl_point_layout(s, p, &l);
  uint64_t op_bytes = nccl_layout_bytes(&l, nccl_dtype_get(p->dtype)->size);
  bool grouped = n > 1 || s->n_gpus > 1;
  ncclResult_t res = grouped ? ncclGroupStart() : ncclSuccess;
  for (uint64_t k = 0; k < n && res == ncclSuccess; k++) {
    uint64_t shift = nccl_rotation_offset(op_bytes, s->max_bytes, s->op_index++);
    for (int g = 0; g < s->n_gpus && res == ncclSuccess; g++)
      res = issue(s, &s->gpus[g], p, &l, shift);
  }
  ncclResult_t end = grouped ? ncclGroupEnd() : ncclSuccess;
  if (res == ncclSuccess) res = end;
  if (res != ncclSuccess)
    return nccl_fail_nccl(s, res, s->gpus[0].comm, nccl_coll_names[p->collective]);
  return 0;
}
