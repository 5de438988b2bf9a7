#include "json_util.h"

#include <math.h>

double rigor_json_number(const json_t *j) {
  return json_is_number(j) ? json_number_value(j) : NAN;
}

double rigor_json_number_at(const json_t *obj, const char *key) {
  return rigor_json_number(json_object_get(obj, key));
}

json_t *rigor_json_real_or_null(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}
