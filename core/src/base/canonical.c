#include "canonical.h"

/* Reals keep 15 significant digits: every decimal a config can spell with at most 15 digits
 * prints back as written, and the text is the same on every platform. */
char *rigor_canonical_dump(const json_t *resolved) {
  return json_dumps(resolved,
                    JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY);
}
