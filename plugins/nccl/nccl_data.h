/* Input generation, expected results and bit-exact checking on host buffers: the host's side of
 * nccl_gen.h (which describes the inputs and the tolerances), the fallback of the check kernels
 * and their oracle in the tests. */
#ifndef RIGOR_NCCL_DATA_H
#define RIGOR_NCCL_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nccl_gen.h"
#include "nccl_layout.h"
#include "nccl_tables.h"

typedef struct nccl_case {
  nccl_coll_t coll;
  const nccl_dtype_t *dtype;
  nccl_op_t op;
  int root;
  int nranks;
  nccl_layout_t layout;
  nccl_gen_t gen; /* the same by value, as the kernels take it */
} nccl_case_t;

typedef struct nccl_check_result {
  uint64_t checked;
  uint64_t wrong;
  double max_abs_err;
  double max_rel_err;
  uint64_t tolerance_ulp;
  bool have_first;
  size_t first_index; /* first wrong element of the result region */
  uint64_t first_got, first_expected;
} nccl_check_result_t;

/* Fills the case for `bytes` of the given collective, type and op. */
void nccl_case_init(nccl_case_t *c, nccl_coll_t coll, nccl_dtype_id_t dtype, nccl_op_t op, int root,
                    int nranks, uint64_t bytes);

/* Bit pattern of element `index` of the send buffer of `rank`. */
uint64_t nccl_data_input(const nccl_case_t *c, int rank, size_t index);
/* Writes the send buffer of `rank` (layout.send_count elements) into `dst`. */
void nccl_data_fill(const nccl_case_t *c, int rank, void *dst);
/* Bit pattern expected at element `index` of the result region of `rank`. */
uint64_t nccl_data_expected(const nccl_case_t *c, int rank, size_t index);
/* Whether `rank` receives a result (reduce and gather deliver to the root only). */
bool nccl_data_rank_checked(const nccl_case_t *c, int rank);
/* Compares the result region of `rank` (layout.recv_count elements at `recv`) with the expected
 * values and accumulates into `res` (which the caller zeroes once). */
void nccl_data_check(const nccl_case_t *c, int rank, const void *recv, nccl_check_result_t *res);
/* Accumulates into `res` what a check of `checked` elements of `rank` tallied (on the host or by a
 * kernel); `first_got` is the element received at t->first when t->wrong > 0. */
void nccl_data_add_tally(const nccl_case_t *c, int rank, uint64_t checked, const nccl_tally_t *t,
                         uint64_t first_got, nccl_check_result_t *res);
/* Largest ULP distance accepted for this type and op (0 except avg on floating types). */
uint64_t nccl_data_tolerance_ulp(const nccl_case_t *c);

#endif
