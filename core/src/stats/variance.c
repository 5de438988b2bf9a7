#include <math.h>
#include <stdlib.h>

#include "rigor/plugin.h"
#include "inference.h"
#include "stats.h"

int rigor_variance_components(const double *y, size_t runs, size_t cycles, double level,
                              rigor_variance_t *out) {
  if (!y || !out || runs < 2 || cycles < 2 || !(level > 0 && level < 1)) return RIGOR_EINVAL;
  double grand = 0, within = 0, between = 0;
  for (size_t j = 0; j < runs; j++) {
    double m = 0;
    for (size_t k = 0; k < cycles; k++)
      m += y[j * cycles + k];
    m /= (double)cycles;
    for (size_t k = 0; k < cycles; k++)
      within += (y[j * cycles + k] - m) * (y[j * cycles + k] - m);
    grand += m;
  }
  grand /= (double)runs;
  for (size_t j = 0; j < runs; j++) {
    double m = 0;
    for (size_t k = 0; k < cycles; k++)
      m += y[j * cycles + k];
    m /= (double)cycles;
    between += (m - grand) * (m - grand);
  }
  out->runs = runs;
  out->cycles = cycles;
  out->level = level;
  out->mean = grand;
  out->s1_sq = within / ((double)runs * (double)(cycles - 1));
  out->s2_sq = between / (double)(runs - 1);
  out->t1_sq = out->s1_sq;
  out->t2_sq = out->s2_sq - out->s1_sq / (double)cycles;
  double t = rigor_student_t_quantile(1 - (1 - level) / 2, (double)(runs - 1));
  out->half_width = t * sqrt(out->s2_sq / (double)runs);
  return 0;
}

int rigor_variance_suggest(const rigor_variance_t *v, double cost_cycle, double cost_run,
                           double target_half_width, uint32_t max_cycles, uint32_t max_runs,
                           uint32_t *cycles, uint32_t *runs) {
  if (!v || !cycles || !runs || !(cost_cycle > 0) || !(cost_run >= 0) || !(target_half_width > 0) ||
      max_cycles < 1 || max_runs < 2)
    return RIGOR_EINVAL;
  double n1;
  if (v->t1_sq <= 0)
    n1 = 1;
  else if (v->t2_sq <= 0)
    n1 = max_cycles;
  else
    n1 = ceil(sqrt(cost_run * v->t1_sq / (cost_cycle * v->t2_sq)));
  if (n1 < 1) n1 = 1;
  if (n1 > max_cycles) n1 = max_cycles;
  *cycles = (uint32_t)n1;
  /* The expected between-run sample variance for n1 cycles per run. */
  double per_run = fmax(v->t2_sq, 0) + v->t1_sq / n1;
  *runs = max_runs;
  for (uint32_t n2 = 2; n2 <= max_runs; n2++) {
    double t = rigor_student_t_quantile(1 - (1 - v->level) / 2, n2 - 1);
    if (t * sqrt(per_run / n2) <= target_half_width) {
      *runs = n2;
      break;
    }
  }
  return 0;
}
