#include "arms.h"

#include <stdlib.h>

int rigor_arms_measure(rigor_measure_t *const *arms, const rigor_arm_order_t *order,
                       rigor_arm_slot_fn on_slot, void *arg) {
  const uint32_t k = order->n_arms;
  if (k == 0 || order->rows == 0) return RIGOR_EINVAL;
  const uint32_t cycles = arms[0]->timing->cycles, n_points = arms[0]->n_points;
  uint64_t most = 0;
  for (uint32_t a = 0; a < k; a++) {
    if (arms[a]->timing->cycles != cycles || arms[a]->n_points != n_points)
      return arms[a]->ctx->host.error(arms[a]->ctx, RIGOR_EINVAL,
                                      "arm %u measures %u cycles of %u points, arm 0 %u of %u: "
                                      "the arms of a run must pair every window",
                                      a, arms[a]->timing->cycles, arms[a]->n_points, cycles,
                                      n_points);
    if (arms[a]->timing->per_iteration) {
      uint64_t n = rigor_measure_most_iters(arms[a]);
      most = n > most ? n : most;
    }
  }
  /* Allocated outside every window, large enough for any arm's. */
  double *iter_buf = most ? calloc(most, sizeof(double)) : NULL;
  if (most && !iter_buf) return RIGOR_ENOMEM;
  int rc = 0;
  for (uint32_t c = 0; c < cycles && rc == 0; c++) {
    const uint32_t *row = order->square + (size_t)((c + order->first_row) % order->rows) * k;
    for (uint32_t pt = 0; pt < n_points && rc == 0; pt++)
      for (uint32_t slot = 0; slot < k && rc == 0; slot++) {
        rigor_measure_t *m = arms[row[slot]];
        if ((rc = rigor_measure_should_stop(m)) != 0) break;
        if (on_slot) on_slot(arg, row[slot], slot);
        rc = rigor_measure_point(m, c, pt, iter_buf);
      }
  }
  free(iter_buf);
  return rc;
}
