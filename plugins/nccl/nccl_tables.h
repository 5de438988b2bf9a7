/* Names and properties of the collectives, data types and reduction operators the plugin offers.
 * Pure data: no CUDA or NCCL header, so the unit tests run without a device. Indices follow the
 * `choices` arrays, which are what the params struct stores; `nccl_code` fields carry the
 * ncclDataType_t / ncclRedOp_t values (checked against nccl.h where that header is included). */
#ifndef RIGOR_NCCL_TABLES_H
#define RIGOR_NCCL_TABLES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  NCCL_COLL_ALL_REDUCE = 0,
  NCCL_COLL_ALL_GATHER,
  NCCL_COLL_REDUCE_SCATTER,
  NCCL_COLL_BROADCAST,
  NCCL_COLL_REDUCE,
  NCCL_COLL_ALLTOALL,
  NCCL_COLL_SENDRECV,
  NCCL_COLL_GATHER,
  NCCL_COLL_SCATTER,
  NCCL_COLL_COUNT
} nccl_coll_t;

typedef enum {
  NCCL_DT_INT8 = 0,
  NCCL_DT_UINT8,
  NCCL_DT_INT32,
  NCCL_DT_UINT32,
  NCCL_DT_INT64,
  NCCL_DT_UINT64,
  NCCL_DT_HALF,
  NCCL_DT_BFLOAT16,
  NCCL_DT_FLOAT,
  NCCL_DT_DOUBLE,
  NCCL_DT_F8E4M3,
  NCCL_DT_F8E5M2,
  NCCL_DT_COUNT
} nccl_dtype_id_t;

typedef enum {
  NCCL_OP_SUM = 0,
  NCCL_OP_PROD,
  NCCL_OP_MAX,
  NCCL_OP_MIN,
  NCCL_OP_AVG,
  NCCL_OP_COUNT
} nccl_op_t;

typedef enum { NCCL_PLACE_OUT = 0, NCCL_PLACE_IN } nccl_placement_t;

/* Where inputs are generated and results judged: auto is device where the plugin was built with
 * the check kernels, else host. */
typedef enum { NCCL_CHECK_AUTO = 0, NCCL_CHECK_DEVICE, NCCL_CHECK_HOST } nccl_check_on_t;

typedef enum { NCCL_KIND_SIGNED = 0, NCCL_KIND_UNSIGNED, NCCL_KIND_FLOAT } nccl_kind_t;

typedef struct nccl_dtype {
  const char *name;
  int nccl_code;
  size_t size;
  nccl_kind_t kind;
  int exp_bits;  /* floating types only */
  int mant_bits; /* explicit mantissa bits, floating types only */
  bool has_inf;  /* false for e4m3, whose all-ones exponent still holds finite values */
} nccl_dtype_t;

extern const char *const nccl_coll_names[];  /* NULL-terminated, indexed by nccl_coll_t */
extern const char *const nccl_dtype_names[]; /* NULL-terminated, indexed by nccl_dtype_id_t */
extern const char *const nccl_op_names[];    /* NULL-terminated, indexed by nccl_op_t */
extern const char *const nccl_placement_names[];
extern const char *const nccl_check_on_names[];
extern const int nccl_op_codes[]; /* ncclRedOp_t per nccl_op_t */

const nccl_dtype_t *nccl_dtype_get(int id);
/* Whether the collective reduces (and therefore uses the op). */
bool nccl_coll_reduces(nccl_coll_t coll);
/* Whether the collective uses the root parameter. */
bool nccl_coll_rooted(nccl_coll_t coll);

#endif
