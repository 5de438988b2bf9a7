#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pto_vf_state.h"

static bool tolerance_differs(double recorded, double contract) {
  return isnan(recorded) || fabs(recorded - contract) > 1e-12 * fmax(1.0, fabs(contract));
}

/* The golden gate and the measurement contract. */
void pto_vf_check_golden(pto_vf_state_t *st) {
  const pto_vf_params_t *p = st->p;
  vf_golden_t *g = &st->golden;
  char err[256];
  if (pto_vf_has_text(p->golden) && vf_golden_load(p->golden, g, err, sizeof err) != 0)
    pto_vf_set_invalid(st, "%s", err);
  vf_golden_patterns_t pats = pto_vf_patterns_of(p);
  if (st->ran && st->run.output &&
      vf_golden_from_output(st->run.output, &pats, g, err, sizeof err) != 0)
    pto_vf_set_invalid(st, "%s", err);
  if (g->status == VF_GOLDEN_FAIL)
    pto_vf_set_invalid(st, "correctness failed: golden status FAIL, mismatches %s%" PRIu64,
                       g->has_mismatches ? "" : "unknown ", g->mismatches);
  else if (g->status == VF_GOLDEN_UNKNOWN && g->has_mismatches && g->mismatches > 0)
    pto_vf_set_invalid(st, "correctness failed: %" PRIu64 " mismatches", g->mismatches);
  else if (g->status == VF_GOLDEN_UNKNOWN && p->require_golden)
    pto_vf_set_invalid(st,
                       "no golden result: set golden or status_regex (or require_golden: false)");
  if (pto_vf_has_text(p->build_flags) &&
      (!g->has_build_flags || strcmp(g->build_flags, p->build_flags) != 0))
    pto_vf_set_invalid(st, "build flags differ from the contract: recorded '%s', contract '%s'",
                       g->has_build_flags ? g->build_flags : "(none)", p->build_flags);
  if (pto_vf_has_text(p->workload) && (!g->has_workload || strcmp(g->workload, p->workload) != 0))
    pto_vf_set_invalid(st, "workload differs from the contract: recorded '%s', contract '%s'",
                       g->has_workload ? g->workload : "(none)", p->workload);
  if (p->atol >= 0 && tolerance_differs(g->atol, p->atol))
    pto_vf_set_invalid(st, "threshold differs from the contract: atol recorded %g, contract %g",
                       g->atol, p->atol);
  if (p->rtol >= 0 && tolerance_differs(g->rtol, p->rtol))
    pto_vf_set_invalid(st, "threshold differs from the contract: rtol recorded %g, contract %g",
                       g->rtol, p->rtol);
}

/* Empty when the sample is valid, else the first broken rule. */
void pto_vf_sample_reason(const pto_vf_state_t *st, char *out, size_t cap) {
  const vf_summary_t *s = &st->sum;
  out[0] = '\0';
  if (st->invalid[0]) {
    snprintf(out, cap, "%s", st->invalid);
  } else if (!st->scanned) {
    snprintf(out, cap, "trace was not parsed");
  } else if (s->lines && (double)s->malformed / (double)s->lines > st->p->malformed_threshold) {
    const vf_issue_t *is = &s->issues[0];
    snprintf(out, cap,
             "malformed trace: %" PRIu64 " of %" PRIu64
             " lines exceed malformed_threshold %g; first %s:%" PRIu64 " (%s)",
             s->malformed, s->lines, st->p->malformed_threshold, pto_vf_dump_path(st, is->file),
             is->line, vf_line_status_name(is->kind));
  } else if (!s->has_first_start || !s->has_last_end) {
    snprintf(out, cap, "trace has no VF %s record", !s->has_first_start ? "start" : "end");
  } else if (s->last_vf_end < s->first_vf_start) {
    snprintf(out, cap, "last VF end %" PRIu64 " precedes first VF start %" PRIu64, s->last_vf_end,
             s->first_vf_start);
  }
}
