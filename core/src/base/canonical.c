#include "canonical.h"

#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "errors.h"

/* Reals keep 15 significant digits: every decimal a config can spell with at most 15 digits
 * prints back as written, and the text is the same on every platform. */
char *rigor_canonical_dump(const json_t *resolved) {
  return json_dumps(resolved,
                    JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY);
}

int rigor_canonical_sha256(const json_t *doc, char hex[65]) {
  char *text = doc ? rigor_canonical_dump(doc) : NULL;
  if (!text) return RIGOR_ENOMEM;
  rigor_sha256_hex(text, strlen(text), hex);
  free(text);
  return 0;
}
