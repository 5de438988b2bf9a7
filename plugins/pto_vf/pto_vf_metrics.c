#include <math.h>
#include <stdbool.h>

#include "pto_vf_schema.h"
#include "pto_vf_state.h"

static double stat_or_nan(uint64_t n, uint64_t value) {
  return n ? (double)value : NAN;
}

int pto_vf_metrics_read(rigor_ctx_t *ctx, void *state, const void *point, double *v) {
  (void)ctx, (void)point;
  pto_vf_state_t *st = state;
  const vf_summary_t *s = &st->sum;
  const vf_golden_t *g = &st->golden;
  char reason[256];
  pto_vf_sample_reason(st, reason, sizeof reason);
  bool valid = reason[0] == '\0';
  bool window =
      st->scanned && s->has_first_start && s->has_last_end && s->last_vf_end >= s->first_vf_start;
  double total = window ? (double)(s->last_vf_end - s->first_vf_start) : NAN;
  v[PTO_VF_M_TOTAL] = total;
  v[PTO_VF_M_FIRST_START] = s->has_first_start ? (double)s->first_vf_start : NAN;
  v[PTO_VF_M_LAST_END] = s->has_last_end ? (double)s->last_vf_end : NAN;
  v[PTO_VF_M_VF_COUNT] = st->scanned ? (double)s->vf_ends : NAN;
  v[PTO_VF_M_EXEC_SUM] = stat_or_nan(s->exec_n, s->exec_sum);
  v[PTO_VF_M_EXEC_MIN] = stat_or_nan(s->exec_n, s->exec_min);
  v[PTO_VF_M_EXEC_MAX] = stat_or_nan(s->exec_n, s->exec_max);
  v[PTO_VF_M_REAL_SUM] = stat_or_nan(s->real_n, s->real_sum);
  v[PTO_VF_M_REAL_MIN] = stat_or_nan(s->real_n, s->real_min);
  v[PTO_VF_M_REAL_MAX] = stat_or_nan(s->real_n, s->real_max);
  v[PTO_VF_M_INSTR_COUNT] = stat_or_nan(s->instr_num_n, s->instr_num_sum);
  v[PTO_VF_M_UNMATCHED_STARTS] = (double)s->unmatched_starts;
  v[PTO_VF_M_UNMATCHED_ENDS] = (double)s->unmatched_ends;
  for (int c = 0; c < VF_CLASS_COUNT; c++)
    v[PTO_VF_M_CLASS_LOAD + c] = (double)s->class_count[c];
  v[PTO_VF_M_MALFORMED] = (double)s->malformed;
  bool rated = valid && total > 0;
  v[PTO_VF_M_SPEEDUP] = rated && st->p->baseline_cycles > 0 ? st->p->baseline_cycles / total : NAN;
  v[PTO_VF_M_PERCENT] =
      rated && st->p->benchmark_cycles > 0 ? st->p->benchmark_cycles / total * 100.0 : NAN;
  v[PTO_VF_M_GOLDEN_PASS] = g->status == VF_GOLDEN_UNKNOWN ? NAN : (double)g->status;
  v[PTO_VF_M_MISMATCHES] = g->has_mismatches ? (double)g->mismatches : NAN;
  v[PTO_VF_M_MAX_ABS] = g->max_abs_err;
  v[PTO_VF_M_MAX_REL] = g->max_rel_err;
  v[PTO_VF_M_ATOL] = g->atol;
  v[PTO_VF_M_RTOL] = g->rtol;
  v[PTO_VF_M_RUNNER_EXIT] = st->ran ? (double)st->run.exit_code : NAN;
  v[PTO_VF_M_RUNNER_WALL] = st->ran ? st->run.wall_s : NAN;
  bool record = valid && !st->recorded;
  if (record) st->recorded = true;
  pto_vf_repeats_fill(&st->repeats, st->point_index, record, s->last_vf_end - s->first_vf_start, v);
  v[PTO_VF_M_VALID] = valid ? 1.0 : 0.0;
  return 0;
}
