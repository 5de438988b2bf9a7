/* Interleaved arms: the cycles of a run that hosts several complete plugin instances (one per
 * level of the interleaved axis), each with its own state, points and iteration counts. */
#ifndef RIGOR_ARMS_H
#define RIGOR_ARMS_H

#include <stdint.h>

#include "measure.h"

/* The order of the arms inside each cycle: cycle c takes row (c + first_row) % rows of `square`
 * (square[row * n_arms + slot] = arm), a Williams square over the arms: ABBA/BAAB for two. */
typedef struct rigor_arm_order {
  const uint32_t *square;
  uint32_t rows, n_arms, first_row;
} rigor_arm_order_t;

/* Told which arm measures next and at which slot of its cycle, before its window. */
typedef void (*rigor_arm_slot_fn)(void *arg, uint32_t arm, uint32_t slot);

/* Every arm already prepared (rigor_measure_prepare). Per cycle, for each point, every arm
 * measures that point once, in the cycle's order; the arms measure the same cycles and points.
 * Returns 0 or the first error (a plugin's, or the code of a stop). */
int rigor_arms_measure(rigor_measure_t *const *arms, const rigor_arm_order_t *order,
                       rigor_arm_slot_fn on_slot, void *arg);

#endif
