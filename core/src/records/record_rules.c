#include "record_rules.h"

#include <stdio.h>
#include <string.h>

#include "bounds.h"
#include "format.h"
#include "rigor/plugin.h"

const rigor_index_member_t rigor__index_members[RIGOR_INDEX_COUNT] = {
    [RIGOR_INDEX_RUN] = {"run", 0, RIGOR_MAX_RUNS - 1},
    [RIGOR_INDEX_ATTEMPT] = {"attempt", 0, INT32_MAX},
    [RIGOR_INDEX_VARIANT] = {"variant", 0, RIGOR_MAX_VARIANTS - 1},
    [RIGOR_INDEX_BLOCK] = {"block", 0, RIGOR_MAX_RUNS - 1},
    [RIGOR_INDEX_POSITION] = {"position", 0, RIGOR_MAX_VARIANTS - 1},
    [RIGOR_INDEX_CYCLE] = {"cycle", 0, INT32_MAX},
    [RIGOR_INDEX_POINT] = {"point", 0, RIGOR_MAX_POINTS - 1},
    [RIGOR_INDEX_ARM] = {"arm", 0, RIGOR_MAX_ARMS - 1},
    [RIGOR_INDEX_SLOT] = {"slot", 0, RIGOR_MAX_ARMS - 1},
};

static const char *const record_types[] = {"experiment", "run", "sample", "telemetry", "stop"};

static int check_indices(const json_t *rec, const char *path, size_t line, char *err,
                         size_t errlen) {
  for (size_t i = 0; i < RIGOR_INDEX_COUNT; i++) {
    const rigor_index_member_t *m = &rigor__index_members[i];
    const json_t *v = json_object_get(rec, m->name);
    if (!v || json_is_null(v)) continue;
    if (!json_is_integer(v) || json_integer_value(v) < m->min || json_integer_value(v) > m->max) {
      snprintf(err, errlen, "%s:%zu:1: \"%s\" must be an integer from %lld to %lld", path, line,
               m->name, (long long)m->min, (long long)m->max);
      return RIGOR_EINVAL;
    }
  }
  return 0;
}

int rigor__record_check(const json_t *rec, const char *path, size_t line, const char **type_out,
                        char *err, size_t errlen) {
  if (!json_is_object(rec)) {
    snprintf(err, errlen, "%s:%zu:1: a record must be a JSON object", path, line);
    return RIGOR_EINVAL;
  }
  const char *schema = json_string_value(json_object_get(rec, "schema"));
  if (!schema || strcmp(schema, RIGOR_RESULT_SCHEMA) != 0) {
    snprintf(err, errlen, "%s:%zu:1: unsupported schema '%s' (expected '%s')", path, line,
             schema ? schema : "(missing)", RIGOR_RESULT_SCHEMA);
    return RIGOR_EINVAL;
  }
  const char *type = json_string_value(json_object_get(rec, "type"));
  if (!type) {
    snprintf(err, errlen, "%s:%zu:1: record has no \"type\"", path, line);
    return RIGOR_EINVAL;
  }
  size_t t = 0, n_types = sizeof record_types / sizeof *record_types;
  while (t < n_types && strcmp(type, record_types[t]) != 0)
    t++;
  if (t == n_types) {
    snprintf(err, errlen, "%s:%zu:1: unknown record type '%s'", path, line, type);
    return RIGOR_EINVAL;
  }
  if (!json_is_string(json_object_get(rec, "experiment"))) {
    snprintf(err, errlen, "%s:%zu:1: %s record has no \"experiment\" name", path, line, type);
    return RIGOR_EINVAL;
  }
  *type_out = type;
  return check_indices(rec, path, line, err, errlen);
}
