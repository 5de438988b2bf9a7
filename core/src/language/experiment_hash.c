#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "digest.h"
#include "experiment.h"

/* Members of the resolved experiment that change nothing that runs: free text, so fixing a typo
 * keeps the hash that --resume checks. */
static const char *const unhashed[] = {"description", NULL};

json_t *rigor_experiment_hashed_form(const json_t *resolved) {
  json_t *form = json_copy((json_t *)resolved);
  if (!form) return NULL;
  for (size_t i = 0; unhashed[i]; i++)
    json_object_del(form, unhashed[i]);
  return form;
}

int rigor_experiment_hash(const json_t *resolved, char hex[65]) {
  json_t *form = rigor_experiment_hashed_form(resolved);
  int rc = rigor_canonical_sha256(form, hex);
  json_decref(form);
  return rc;
}
