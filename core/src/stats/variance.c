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
  *out = (rigor_variance_t){0};
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

static double run_mean(const double *y, size_t j, size_t cycles) {
  double m = 0;
  for (size_t k = 0; k < cycles; k++)
    m += y[j * cycles + k];
  return m / (double)cycles;
}

int rigor_variance_components_nodes(const double *y, size_t runs, size_t cycles,
                                    const uint32_t *node, size_t nodes, double level,
                                    rigor_variance_t *out) {
  if (!y || !node || !out || nodes < 2 || runs <= nodes || cycles < 2 || !(level > 0 && level < 1))
    return RIGOR_EINVAL;
  size_t *count = calloc(nodes, sizeof *count);
  double *sum = calloc(nodes, sizeof *sum);
  if (!count || !sum) {
    free(count), free(sum);
    return RIGOR_ENOMEM;
  }
  int rc = 0;
  double within = 0;
  for (size_t j = 0; j < runs && !rc; j++) {
    if (node[j] >= nodes) {
      rc = RIGOR_EINVAL;
      break;
    }
    double m = run_mean(y, j, cycles);
    for (size_t k = 0; k < cycles; k++)
      within += (y[j * cycles + k] - m) * (y[j * cycles + k] - m);
    count[node[j]]++;
    sum[node[j]] += m;
  }
  double grand = 0, inverse_runs = 0;
  for (size_t i = 0; i < nodes && !rc; i++) {
    if (!count[i]) {
      rc = RIGOR_EINVAL;
      break;
    }
    sum[i] /= (double)count[i]; /* the node's mean */
    grand += sum[i] / (double)nodes;
    inverse_runs += 1 / (double)count[i];
  }
  if (rc) {
    free(count), free(sum);
    return rc;
  }
  double between_runs = 0, between_nodes = 0;
  for (size_t j = 0; j < runs; j++) {
    double d = run_mean(y, j, cycles) - sum[node[j]];
    between_runs += d * d;
  }
  for (size_t i = 0; i < nodes; i++)
    between_nodes += (sum[i] - grand) * (sum[i] - grand);
  free(count), free(sum);
  *out = (rigor_variance_t){0};
  out->runs = runs;
  out->cycles = cycles;
  out->nodes = nodes;
  out->level = level;
  out->mean = grand;
  out->s1_sq = within / ((double)runs * (double)(cycles - 1));
  out->s2_sq = between_runs / (double)(runs - nodes);
  out->s3_sq = between_nodes / (double)(nodes - 1);
  out->node_runs = (double)nodes / inverse_runs;
  out->t1_sq = out->s1_sq;
  out->t2_sq = out->s2_sq - out->s1_sq / (double)cycles;
  out->t3_sq = out->s3_sq - out->s2_sq / out->node_runs;
  double total = out->t1_sq + fmax(out->t2_sq, 0) + fmax(out->t3_sq, 0);
  out->node_share = total > 0 ? fmax(out->t3_sq, 0) / total : 0;
  /* The nodes are the top-level unit: a campaign's nodes are some of the cluster's, and what
   * it measured should hold on any of them, so the mean's variance is that of the node means
   * (S3^2 / nodes) on nodes - 1 degrees of freedom, however many runs each node gave. With two
   * nodes that interval is wide (t = 12.7 at 95%): a node effect is known to within what two
   * nodes can say. Read as fixed (only these nodes matter), the interval would take the
   * within-node variance on runs - nodes degrees of freedom instead and be too narrow for any
   * other node. */
  double t = rigor_student_t_quantile(1 - (1 - level) / 2, (double)(nodes - 1));
  out->half_width = t * sqrt(out->s3_sq / (double)nodes);
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
