#include "nccl_data.h"

#include <math.h>

#include "nccl_elem.h"

void nccl_case_init(nccl_case_t *c, nccl_coll_t coll, nccl_dtype_id_t dtype, nccl_op_t op, int root,
                    int nranks, uint64_t bytes) {
  c->coll = coll;
  c->dtype = nccl_dtype_get(dtype);
  c->op = op;
  c->root = root;
  c->nranks = nranks;
  nccl_layout_compute(coll, bytes, c->dtype->size, nranks, &c->layout);
}

static uint64_t mix(int rank, size_t index) {
  uint64_t h = (uint64_t)index * UINT64_C(0x9E3779B97F4A7C15) +
               (uint64_t)rank * UINT64_C(0xBF58476D1CE4E5B9);
  h ^= h >> 29;
  h *= UINT64_C(0x94D049BB133111EB);
  return h ^ (h >> 32);
}

/* Largest magnitude whose sums over all ranks stay exact. */
static uint64_t exact_sum_bound(const nccl_case_t *c) {
  const nccl_dtype_t *t = c->dtype;
  if (t->kind == NCCL_KIND_FLOAT) {
    uint64_t limit = UINT64_C(1) << (t->mant_bits < 53 ? t->mant_bits + 1 : 53);
    return limit / (uint64_t)c->nranks;
  }
  unsigned width = (unsigned)(8 * t->size) - (t->kind == NCCL_KIND_SIGNED ? 1 : 0);
  uint64_t max = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
  return max / (uint64_t)c->nranks;
}

static double float_input(const nccl_case_t *c, int rank, size_t index) {
  uint64_t h = mix(rank, index);
  switch (c->op) {
  case NCCL_OP_PROD: {
    /* Over any set of consecutive ranks the 2s and the halves differ by at most one. */
    size_t phase = (index + (size_t)rank) % 4;
    double v = phase == 0 ? 2.0 : phase == 2 ? 0.5 : 1.0;
    return (h >> 7) % 5 == 0 ? -v : v;
  }
  case NCCL_OP_MAX:
  case NCCL_OP_MIN: {
    uint64_t span = UINT64_C(1) << (c->dtype->mant_bits + 1);
    if (span > 1000) span = 1000;
    return (double)(int64_t)(h % (2 * span + 1)) - (double)span;
  }
  case NCCL_OP_SUM:
  case NCCL_OP_AVG:
  case NCCL_OP_COUNT:
    break;
  }
  uint64_t m = exact_sum_bound(c);
  if (m == 0) /* more ranks than exact integers: one rank contributes 1 per element */
    return index % (size_t)c->nranks == (size_t)rank ? 1.0 : 0.0;
  if (m > 1000) m = 1000;
  /* avg: non-negative, so NCCL's pre-multiplied sum has no cancellation to magnify rounding */
  if (c->op == NCCL_OP_AVG) return (double)(h % (m + 1));
  return (double)(int64_t)(h % (2 * m + 1)) - (double)m;
}

static uint64_t int_input(const nccl_case_t *c, int rank, size_t index) {
  uint64_t h = mix(rank, index);
  if (c->op == NCCL_OP_AVG) { /* non-negative and overflow-free: the division is unambiguous */
    uint64_t bound = exact_sum_bound(c);
    return bound == UINT64_MAX ? h : h % (bound + 1);
  }
  if (c->op == NCCL_OP_PROD) /* odd factors keep wrapped products from collapsing to zero */
    return h | 1;
  return h;
}

uint64_t nccl_data_input(const nccl_case_t *c, int rank, size_t index) {
  if (c->dtype->kind == NCCL_KIND_FLOAT)
    return nccl_elem_encode_float(c->dtype, float_input(c, rank, index));
  uint64_t mask = c->dtype->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * c->dtype->size)) - 1;
  return int_input(c, rank, index) & mask;
}

void nccl_data_fill(const nccl_case_t *c, int rank, void *dst) {
  for (size_t i = 0; i < c->layout.send_count; i++)
    nccl_elem_store(c->dtype, dst, i, nccl_data_input(c, rank, i));
}

static uint64_t reduce_int(const nccl_case_t *c, size_t index) {
  const nccl_dtype_t *t = c->dtype;
  bool is_signed = t->kind == NCCL_KIND_SIGNED;
  uint64_t acc = nccl_elem_normalize_int(t, nccl_data_input(c, 0, index));
  for (int r = 1; r < c->nranks; r++) {
    uint64_t v = nccl_elem_normalize_int(t, nccl_data_input(c, r, index));
    switch (c->op) {
    case NCCL_OP_SUM:
    case NCCL_OP_AVG:
    case NCCL_OP_COUNT:
      acc += v;
      break;
    case NCCL_OP_PROD:
      acc *= v;
      break;
    case NCCL_OP_MAX:
      if (is_signed ? (int64_t)v > (int64_t)acc : v > acc) acc = v;
      break;
    case NCCL_OP_MIN:
      if (is_signed ? (int64_t)v < (int64_t)acc : v < acc) acc = v;
      break;
    }
  }
  if (c->op == NCCL_OP_AVG) acc /= (uint64_t)c->nranks;
  uint64_t mask = t->size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * t->size)) - 1;
  return acc & mask;
}

static uint64_t reduce_float(const nccl_case_t *c, size_t index) {
  const nccl_dtype_t *t = c->dtype;
  double acc = nccl_elem_decode_float(t, nccl_data_input(c, 0, index));
  for (int r = 1; r < c->nranks; r++) {
    double v = nccl_elem_decode_float(t, nccl_data_input(c, r, index));
    switch (c->op) {
    case NCCL_OP_SUM:
    case NCCL_OP_AVG:
    case NCCL_OP_COUNT:
      acc += v;
      break;
    case NCCL_OP_PROD:
      acc *= v;
      break;
    case NCCL_OP_MAX:
      acc = v > acc ? v : acc;
      break;
    case NCCL_OP_MIN:
      acc = v < acc ? v : acc;
      break;
    }
  }
  if (c->op == NCCL_OP_AVG) acc /= (double)c->nranks;
  return nccl_elem_encode_float(t, acc);
}

static uint64_t reduced(const nccl_case_t *c, size_t index) {
  return c->dtype->kind == NCCL_KIND_FLOAT ? reduce_float(c, index) : reduce_int(c, index);
}

uint64_t nccl_data_expected(const nccl_case_t *c, int rank, size_t index) {
  size_t per = c->layout.param_count;
  int n = c->nranks;
  switch (c->coll) {
  case NCCL_COLL_ALL_REDUCE:
  case NCCL_COLL_REDUCE:
  case NCCL_COLL_COUNT:
    return reduced(c, index);
  case NCCL_COLL_REDUCE_SCATTER:
    return reduced(c, (size_t)rank * per + index);
  case NCCL_COLL_BROADCAST:
    return nccl_data_input(c, c->root, index);
  case NCCL_COLL_ALL_GATHER:
  case NCCL_COLL_GATHER:
    return nccl_data_input(c, (int)(index / per), index % per);
  case NCCL_COLL_ALLTOALL:
    return nccl_data_input(c, (int)(index / per), (size_t)rank * per + index % per);
  case NCCL_COLL_SENDRECV:
    return nccl_data_input(c, (rank - 1 + n) % n, index);
  case NCCL_COLL_SCATTER:
    return nccl_data_input(c, c->root, (size_t)rank * per + index);
  }
  return 0;
}

bool nccl_data_rank_checked(const nccl_case_t *c, int rank) {
  if (c->coll == NCCL_COLL_REDUCE || c->coll == NCCL_COLL_GATHER) return rank == c->root;
  return true;
}

uint64_t nccl_data_tolerance_ulp(const nccl_case_t *c) {
  return c->op == NCCL_OP_AVG && c->dtype->kind == NCCL_KIND_FLOAT && nccl_coll_reduces(c->coll)
             ? 2
             : 0;
}

static double value_of(const nccl_dtype_t *t, uint64_t bits) {
  if (t->kind == NCCL_KIND_FLOAT) return nccl_elem_decode_float(t, bits);
  if (t->kind == NCCL_KIND_SIGNED) return (double)nccl_elem_signed(t, bits);
  return (double)bits;
}

void nccl_data_check(const nccl_case_t *c, int rank, const void *recv, nccl_check_result_t *res) {
  const nccl_dtype_t *t = c->dtype;
  uint64_t tol = nccl_data_tolerance_ulp(c);
  res->tolerance_ulp = tol;
  if (!nccl_data_rank_checked(c, rank)) return;
  for (size_t i = 0; i < c->layout.recv_count; i++) {
    uint64_t got = nccl_elem_load(t, recv, i);
    uint64_t want = nccl_data_expected(c, rank, i);
    res->checked++;
    if (got == want) continue;
    double g = value_of(t, got), w = value_of(t, want);
    double abs_err = isnan(g) ? INFINITY : fabs(g - w);
    double rel_err = w != 0.0 ? abs_err / fabs(w) : abs_err;
    if (abs_err > res->max_abs_err) res->max_abs_err = abs_err;
    if (rel_err > res->max_rel_err) res->max_rel_err = rel_err;
    if (tol > 0 && nccl_elem_ulp_distance(t, got, want) <= tol) continue;
    res->wrong++;
    if (!res->have_first) {
      res->have_first = true;
      res->first_index = i;
      res->first_got = got;
      res->first_expected = want;
    }
  }
}
