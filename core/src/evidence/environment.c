#include "environment.h"
#include "rigor/plugin.h"

#include <string.h>

#include "affinity.h"
#include "noise.h"

int rigor_environment_check(const char *field, const json_t *value, char *err, size_t errlen) {
  if (strcmp(field, "affinity") == 0) return rigor_affinity_check(value, err, errlen);
  if (strcmp(field, "noise") == 0) return rigor_noise_check(value, err, errlen);
  return 0;
}
