/* One operation of the selected point: what run() repeats inside the measured window. */
#ifndef X280_OPS_H
#define X280_OPS_H

#include "x280_state.h"

/* Returns 0, or the code that stopped it (RIGOR_ECANCELED, RIGOR_ETIMEDOUT); the output is then
 * incomplete. */
int x280_op(x280_state_t *s);
/* Checks the host's stop flag and the point's deadline; 0 when neither has passed. Call from the
 * thread that called init. */
int x280_poll_host(x280_state_t *s);
/* The bytes one operation of the plan moves, pushes between clusters included. */
uint64_t x280_op_bytes(const x280_plan_t *plan);

#endif
