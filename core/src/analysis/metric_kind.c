/* What kind of quantity a plugin metric is: a performance figure, or a flag that says which way
 * the run went (non-temporal stores on or off), which has no spread to gate and no trend. */
#include <string.h>

#include "analysis.h"

const json_t *rigor_metric_declared(const rigor_exp_analysis_t *e, const char *name) {
  size_t i;
  json_t *m;
  json_array_foreach(json_object_get(json_object_get(e->record, "plugin"), "metrics"), i, m) {
    const char *n = json_string_value(json_object_get(m, "name"));
    if (n && strcmp(n, name) == 0) return m;
  }
  return NULL;
}

static const char *declared_unit(const rigor_exp_analysis_t *e, const char *name) {
  return json_string_value(json_object_get(rigor_metric_declared(e, name), "unit"));
}

bool rigor_metric_is_state(const rigor_exp_analysis_t *e, const char *name, const double *values,
                           size_t n) {
  if (rigor_metric_is_flag(e, name, values, n)) return true;
  size_t i;
  json_t *m;
  json_array_foreach(json_object_get(json_object_get(e->record, "plugin"), "metrics"), i, m) {
    const char *nm = json_string_value(json_object_get(m, "name"));
    const char *better = json_string_value(json_object_get(m, "better"));
    if (nm && strcmp(nm, name) == 0) return better && strcmp(better, "none") == 0;
  }
  return false;
}

bool rigor_metric_is_flag(const rigor_exp_analysis_t *e, const char *name, const double *values,
                          size_t n) {
  const char *unit = declared_unit(e, name);
  if (!unit || strcmp(unit, "bool") != 0) return false;
  for (size_t i = 0; i < n; i++)
    if (values[i] != 0 && values[i] != 1) return false;
  return true;
}
