#include "timing.h"

#include "rigor/plugin.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const rigor_blocking_names[] = {"batch", "each", "each_barrier", "each_excluded", NULL};
const char *const rigor_aggregate_names[] = {"rank0", "avg", "min", "max", NULL};
const char *const rigor_window_names[] = {"wall", "cputime", NULL};
const char *const rigor_warmup_sizes_names[] = {"points", "powers_of_two", NULL};

void rigor_timing_defaults(rigor_timing_t *t) {
  memset(t, 0, sizeof *t);
  t->warmup = 1;
  t->cycles = 10;
  t->iters = 20;
  t->iters_auto = false;
  t->min_window_s = 0.01;
  t->agg = 1;
  t->blocking = RIGOR_BLOCKING_BATCH;
  t->per_iteration = false;
  t->aggregate = RIGOR_AGGREGATE_AVG;
  t->check = 1;
  t->timeout_s = 300;
  t->report = RIGOR_WINDOW_WALL;
  t->warmup_sizes = RIGOR_WARMUP_POINTS;
}

static int name_index(const char *const *names, const char *s) {
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], s) == 0) return i;
  return -1;
}

static int read_uint(const json_t *obj, const char *key, uint64_t max, uint64_t min, uint64_t *out,
                     char *err, size_t errlen) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_integer(v) || json_integer_value(v) < (json_int_t)min ||
      (uint64_t)json_integer_value(v) > max) {
    snprintf(err, errlen, "timing.%s must be an integer from %llu to %llu", key,
             (unsigned long long)min, (unsigned long long)max);
    return RIGOR_EINVAL;
  }
  *out = (uint64_t)json_integer_value(v);
  return 0;
}

static int read_enum(const json_t *obj, const char *key, const char *const *names, int *out,
                     char *err, size_t errlen) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  int i = json_is_string(v) ? name_index(names, json_string_value(v)) : -1;
  if (i < 0) {
    snprintf(err, errlen, "timing.%s has an unknown value", key);
    return RIGOR_EINVAL;
  }
  *out = i;
  return 0;
}

int rigor_timing_from_json(const json_t *obj, rigor_timing_t *t, char *err, size_t errlen) {
  rigor_timing_defaults(t);
  if (!json_is_object(obj)) {
    snprintf(err, errlen, "timing must be an object");
    return RIGOR_EINVAL;
  }
  uint64_t warmup = t->warmup, cycles = t->cycles, check = t->check;
  int blocking = (int)t->blocking, aggregate = (int)t->aggregate, report = (int)t->report;
  int warmup_sizes = (int)t->warmup_sizes;
  int rc = read_uint(obj, "warmup", UINT32_MAX, 0, &warmup, err, errlen);
  if (!rc) rc = read_uint(obj, "cycles", UINT32_MAX, 1, &cycles, err, errlen);
  const json_t *iters = json_object_get(obj, "iters");
  if (json_is_string(iters) && strcmp(json_string_value(iters), "auto") == 0) {
    t->iters_auto = true;
    t->iters = 0;
  } else if (!rc) {
    rc = read_uint(obj, "iters", INT64_MAX, 1, &t->iters, err, errlen);
  }
  if (!rc) rc = read_uint(obj, "agg", INT64_MAX, 1, &t->agg, err, errlen);
  if (!rc) rc = read_uint(obj, "check", UINT32_MAX, 0, &check, err, errlen);
  if (!rc) rc = read_enum(obj, "blocking", rigor_blocking_names, &blocking, err, errlen);
  if (!rc) rc = read_enum(obj, "aggregate", rigor_aggregate_names, &aggregate, err, errlen);
  if (!rc) rc = read_enum(obj, "report", rigor_window_names, &report, err, errlen);
  if (!rc)
    rc = read_enum(obj, "warmup_sizes", rigor_warmup_sizes_names, &warmup_sizes, err, errlen);
  if (rc) return rc;
  const json_t *pi = json_object_get(obj, "per_iteration");
  if (pi) {
    if (!json_is_boolean(pi)) {
      snprintf(err, errlen, "timing.per_iteration must be a boolean");
      return RIGOR_EINVAL;
    }
    t->per_iteration = json_is_true(pi);
  }
  const json_t *mw = json_object_get(obj, "min_window");
  if (mw) {
    if (!json_is_number(mw) || !(json_number_value(mw) > 0) || !isfinite(json_number_value(mw))) {
      snprintf(err, errlen, "timing.min_window must be a positive number of seconds");
      return RIGOR_EINVAL;
    }
    t->min_window_s = json_number_value(mw);
  }
  const json_t *to = json_object_get(obj, "timeout");
  if (to) {
    if (!json_is_number(to) || !(json_number_value(to) > 0) || !isfinite(json_number_value(to))) {
      snprintf(err, errlen, "timing.timeout must be a positive number of seconds");
      return RIGOR_EINVAL;
    }
    t->timeout_s = json_number_value(to);
  }
  t->warmup = (uint32_t)warmup;
  t->cycles = (uint32_t)cycles;
  t->check = (uint32_t)check;
  t->blocking = (rigor_blocking_t)blocking;
  t->aggregate = (rigor_aggregate_t)aggregate;
  t->report = (rigor_window_t)report;
  t->warmup_sizes = (rigor_warmup_sizes_t)warmup_sizes;
  return 0;
}

json_t *rigor_timing_to_json(const rigor_timing_t *t) {
  return json_pack("{s:I, s:I, s:o, s:f, s:I, s:s, s:b, s:s, s:I, s:f, s:s, s:s}", "warmup",
                   (json_int_t)t->warmup, "cycles", (json_int_t)t->cycles, "iters",
                   t->iters_auto ? json_string("auto") : json_integer((json_int_t)t->iters),
                   "min_window", t->min_window_s, "agg", (json_int_t)t->agg, "blocking",
                   rigor_blocking_names[t->blocking], "per_iteration", (int)t->per_iteration,
                   "aggregate", rigor_aggregate_names[t->aggregate], "check", (json_int_t)t->check,
                   "timeout", t->timeout_s, "report", rigor_window_names[t->report], "warmup_sizes",
                   rigor_warmup_sizes_names[t->warmup_sizes]);
}
