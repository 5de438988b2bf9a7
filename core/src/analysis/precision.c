#include "analysis_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

/* Suggested cycles and runs need costs: a cycle costs at least its measured windows (all points
 * of the variant); a run costs its elapsed time, the rest of which is start-up, priming and
 * validation. */
void rigor__suggest_counts(rigor_exp_analysis_t *e) {
  for (size_t v = 0; v < e->n_variants; v++) {
    double per_cycle = 0;
    dvec_t elapsed = {0};
    uint32_t cycles = 0;
    for (size_t r = 0; r < e->n_rows; r++) {
      rigor_row_t *row = &e->rows[r];
      if (row->variant != v || !row->has_variance) continue;
      per_cycle += row->time.median * row->iters * row->agg;
      cycles = (uint32_t)row->variance.cycles;
    }
    for (size_t k = 0; k < e->n_runs; k++)
      if (e->runs[k].variant == v && e->runs[k].status == RIGOR_RUN_OK &&
          isfinite(rigor_json_number_at(e->runs[k].record, "elapsed_s")) &&
          dvec_push(&elapsed, rigor_json_number_at(e->runs[k].record, "elapsed_s")))
        break;
    double run_total = rigor__median_of(&elapsed);
    free(elapsed.v);
    if (!(per_cycle > 0) || !isfinite(run_total)) continue;
    double run_cost = fmax(run_total - cycles * per_cycle, 0);
    for (size_t r = 0; r < e->n_rows; r++) {
      rigor_row_t *row = &e->rows[r];
      if (row->variant == v && row->has_variance) {
        /* Without between-run variance K&J's optimum is "as many cycles as allowed", a cap
         * rather than an answer: keep the cycles that ran. */
        uint32_t max_cycles =
            row->variance.t2_sq > 0 ? RIGOR_VARIANCE_MAX_CYCLES : (uint32_t)row->variance.cycles;
        rigor_variance_suggest(&row->variance, per_cycle, run_cost,
                               RIGOR_VARIANCE_TARGET * fabs(row->variance.mean), max_cycles,
                               RIGOR_VARIANCE_MAX_RUNS, &row->suggest_cycles, &row->suggest_runs);
      }
    }
  }
}
