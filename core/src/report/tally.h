/* The closing line of a comparison: how many rows (or contrasts) were judged and how, and how
 * many could not be, so that a CI reader never takes "nothing slower" for "all judged". */
#ifndef RIGOR_TALLY_H
#define RIGOR_TALLY_H

#include <stddef.h>

#include "decide.h"

typedef struct rigor_tally {
  size_t count[RIGOR_CMP_VERDICT_COUNT];
} rigor_tally_t;

/* Whether a verdict is a judgement of the figure (same, faster, slower, inconclusive) rather
 * than a reason none could be made (invalid, incomparable, undetermined, missing). */
int rigor_verdict_judged(rigor_cmp_verdict_t v);
/* "3 rows: 1 slower, 1 same, 1 inconclusive; 2 could not be judged: 1 missing, 1 invalid",
 * with `noun` ("row", "contrast") made plural where the count calls for it. */
void rigor_tally_line(const rigor_tally_t *t, const char *noun, char *buf, size_t len);

#endif
