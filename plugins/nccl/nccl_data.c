#include "nccl_data.h"

#include "nccl_elem.h"

void nccl_case_init(nccl_case_t *c, nccl_coll_t coll, nccl_dtype_id_t dtype, nccl_op_t op, int root,
                    int nranks, uint64_t bytes) {
  c->coll = coll;
  c->dtype = nccl_dtype_get(dtype);
  c->op = op;
  c->root = root;
  c->nranks = nranks;
  nccl_layout_compute(coll, bytes, c->dtype->size, nranks, &c->layout);
  c->gen = (nccl_gen_t){.t = nccl_fmt_of(c->dtype),
                        .coll = (int32_t)coll,
                        .op = (int32_t)op,
                        .root = root,
                        .nranks = nranks,
                        .send_count = c->layout.send_count,
                        .recv_count = c->layout.recv_count,
                        .param_count = c->layout.param_count};
}

uint64_t nccl_data_input(const nccl_case_t *c, int rank, size_t index) {
  return nccl_gen_input(&c->gen, rank, index);
}

void nccl_data_fill(const nccl_case_t *c, int rank, void *dst) {
  for (size_t i = 0; i < c->layout.send_count; i++)
    nccl_elem_store(c->dtype, dst, i, nccl_gen_input(&c->gen, rank, i));
}

uint64_t nccl_data_expected(const nccl_case_t *c, int rank, size_t index) {
  return nccl_gen_expected(&c->gen, rank, index);
}

bool nccl_data_rank_checked(const nccl_case_t *c, int rank) {
  return nccl_gen_rank_checked(&c->gen, rank);
}

uint64_t nccl_data_tolerance_ulp(const nccl_case_t *c) {
  return nccl_gen_tolerance_ulp(&c->gen);
}

void nccl_data_add_tally(const nccl_case_t *c, int rank, uint64_t checked, const nccl_tally_t *t,
                         uint64_t first_got, nccl_check_result_t *res) {
  res->tolerance_ulp = nccl_gen_tolerance_ulp(&c->gen);
  res->checked += checked;
  res->wrong += t->wrong;
  double abs_err = nccl_f64_of(t->max_abs_bits), rel_err = nccl_f64_of(t->max_rel_bits);
  if (abs_err > res->max_abs_err) res->max_abs_err = abs_err;
  if (rel_err > res->max_rel_err) res->max_rel_err = rel_err;
  if (t->wrong > 0 && !res->have_first) {
    res->have_first = true;
    res->first_index = (size_t)t->first;
    res->first_got = first_got;
    res->first_expected = nccl_gen_expected(&c->gen, rank, t->first);
  }
}

void nccl_data_check(const nccl_case_t *c, int rank, const void *recv, nccl_check_result_t *res) {
  res->tolerance_ulp = nccl_gen_tolerance_ulp(&c->gen);
  if (!nccl_gen_rank_checked(&c->gen, rank)) return;
  nccl_tally_t t;
  nccl_tally_init(&t);
  uint64_t tol = nccl_gen_tolerance_ulp(&c->gen);
  for (size_t i = 0; i < c->layout.recv_count; i++)
    nccl_tally_add(&t, &c->gen, rank, i, nccl_elem_load(c->dtype, recv, i), tol);
  uint64_t first_got = t.wrong > 0 ? nccl_elem_load(c->dtype, recv, (size_t)t.first) : 0;
  nccl_data_add_tally(c, rank, c->layout.recv_count, &t, first_got, res);
}
