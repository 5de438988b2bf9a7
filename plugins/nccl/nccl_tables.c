#include "nccl_tables.h"

const char *const nccl_coll_names[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast",
                                       "reduce",     "alltoall",   "sendrecv",       "gather",
                                       "scatter",    NULL};

const char *const nccl_dtype_names[] = {"int8",   "uint8",  "int32",    "uint32", "int64",
                                        "uint64", "half",   "bfloat16", "float",  "double",
                                        "f8e4m3", "f8e5m2", NULL};

const char *const nccl_op_names[] = {"sum", "prod", "max", "min", "avg", NULL};

const char *const nccl_placement_names[] = {"out", "in", NULL};

const char *const nccl_check_on_names[] = {"auto", "device", "host", NULL};

/* ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg */
const int nccl_op_codes[] = {0, 1, 2, 3, 4};

static const nccl_dtype_t dtypes[NCCL_DT_COUNT] = {
    [NCCL_DT_INT8] = {"int8", 0, 1, NCCL_KIND_SIGNED, 0, 0, false},
    [NCCL_DT_UINT8] = {"uint8", 1, 1, NCCL_KIND_UNSIGNED, 0, 0, false},
    [NCCL_DT_INT32] = {"int32", 2, 4, NCCL_KIND_SIGNED, 0, 0, false},
    [NCCL_DT_UINT32] = {"uint32", 3, 4, NCCL_KIND_UNSIGNED, 0, 0, false},
    [NCCL_DT_INT64] = {"int64", 4, 8, NCCL_KIND_SIGNED, 0, 0, false},
    [NCCL_DT_UINT64] = {"uint64", 5, 8, NCCL_KIND_UNSIGNED, 0, 0, false},
    [NCCL_DT_HALF] = {"half", 6, 2, NCCL_KIND_FLOAT, 5, 10, true},
    [NCCL_DT_BFLOAT16] = {"bfloat16", 9, 2, NCCL_KIND_FLOAT, 8, 7, true},
    [NCCL_DT_FLOAT] = {"float", 7, 4, NCCL_KIND_FLOAT, 8, 23, true},
    [NCCL_DT_DOUBLE] = {"double", 8, 8, NCCL_KIND_FLOAT, 11, 52, true},
    [NCCL_DT_F8E4M3] = {"f8e4m3", 10, 1, NCCL_KIND_FLOAT, 4, 3, false},
    [NCCL_DT_F8E5M2] = {"f8e5m2", 11, 1, NCCL_KIND_FLOAT, 5, 2, true},
};

const nccl_dtype_t *nccl_dtype_get(int id) {
  if (id < 0 || id >= NCCL_DT_COUNT) return NULL;
  return &dtypes[id];
}

bool nccl_coll_reduces(nccl_coll_t coll) {
  return coll == NCCL_COLL_ALL_REDUCE || coll == NCCL_COLL_REDUCE_SCATTER ||
         coll == NCCL_COLL_REDUCE;
}

bool nccl_coll_rooted(nccl_coll_t coll) {
  return coll == NCCL_COLL_BROADCAST || coll == NCCL_COLL_REDUCE || coll == NCCL_COLL_GATHER ||
         coll == NCCL_COLL_SCATTER;
}
