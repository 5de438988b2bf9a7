/* Exact checks of what the selected point's operations produced, against serial answers computed
 * here from the same input; and the planted error that proves the check can fail. */
#ifndef X280_CHECK_H
#define X280_CHECK_H

#include "x280_state.h"

/* Fills `check`; returns 0, or RIGOR_EVALIDATE when any value differs. */
int x280_check(const x280_state_t *s, rigor_check_t *check);
/* Spoils one output value of the last operation (the plant_error param). */
void x280_plant_error(x280_state_t *s);

#endif
