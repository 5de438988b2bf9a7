#include "environment_settings.h"

#include "rigor/plugin.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void rigor_environment_defaults(rigor_environment_t *e) {
  memset(e, 0, sizeof *e);
  e->telemetry.interval_s = 0.1;
  e->telemetry.raw = false;
  e->telemetry.clock_threshold = 0.8;
}

static int read_number(const json_t *obj, const char *key, double min, double max, double *out,
                       char *err, size_t errlen) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  double x = json_is_number(v) ? json_number_value(v) : NAN;
  if (!(x >= min && x <= max)) {
    snprintf(err, errlen, "environment.telemetry.%s must be a number from %g to %g", key, min, max);
    return RIGOR_EINVAL;
  }
  *out = x;
  return 0;
}

static int read_bool(const json_t *obj, const char *what, const char *key, bool *out, char *err,
                     size_t errlen) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_boolean(v)) {
    snprintf(err, errlen, "%s%s must be a boolean", what, key);
    return RIGOR_EINVAL;
  }
  *out = json_is_true(v);
  return 0;
}

static int read_telemetry(const json_t *obj, rigor_telemetry_settings_t *t, char *err,
                          size_t errlen) {
  if (!obj || json_is_null(obj)) return 0;
  if (!json_is_object(obj)) {
    snprintf(err, errlen, "environment.telemetry must be an object");
    return RIGOR_EINVAL;
  }
  int rc = read_number(obj, "interval", 0.001, 3600, &t->interval_s, err, errlen);
  if (!rc) rc = read_bool(obj, "environment.telemetry.", "raw", &t->raw, err, errlen);
  if (!rc) rc = read_number(obj, "clock_threshold", 1e-9, 1, &t->clock_threshold, err, errlen);
  return rc;
}

static const json_t *object_or_null(const json_t *obj, const char *key, char *err, size_t errlen,
                                    int *rc) {
  const json_t *v = json_object_get(obj, key);
  if (!v || json_is_null(v)) return NULL;
  if (!json_is_object(v)) {
    snprintf(err, errlen, "environment.%s must be an object or null", key);
    *rc = RIGOR_EINVAL;
  }
  return v;
}

int rigor_environment_from_json(const json_t *obj, rigor_environment_t *e, char *err,
                                size_t errlen) {
  rigor_environment_defaults(e);
  if (!obj) return 0;
  if (!json_is_object(obj)) {
    snprintf(err, errlen, "environment must be an object");
    return RIGOR_EINVAL;
  }
  int rc = 0;
  e->affinity = object_or_null(obj, "affinity", err, errlen, &rc);
  if (!rc) e->noise = object_or_null(obj, "noise", err, errlen, &rc);
  if (!rc) rc = read_bool(obj, "environment.", "randomize_env", &e->randomize_env, err, errlen);
  if (!rc) rc = read_telemetry(json_object_get(obj, "telemetry"), &e->telemetry, err, errlen);
  return rc;
}
