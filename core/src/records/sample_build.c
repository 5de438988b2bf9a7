/* The sample record's JSON, written member by member from the table of sample_record.h. */
#include <math.h>
#include <string.h>

#include "sample_record.h"

rigor_sample_record_t rigor_sample_record_init(void) {
  return (rigor_sample_record_t){
      .run = -1,
      .attempt = -1,
      .variant = -1,
      .cycle = -1,
      .point = -1,
      .arm = -1,
      .slot = -1,
      .time_s = NAN,
      .wall_s = NAN,
      .cputime_s = NAN,
      .flops = NAN,
      .bus_factor = NAN,
      .bytes_per_s = NAN,
      .flops_per_s = NAN,
      .busbw_bytes_per_s = NAN,
      .check_max_abs_err = NAN,
      .check_max_rel_err = NAN,
      .check_tolerance = NAN,
      .it_min = NAN,
      .it_max = NAN,
      .it_p50 = NAN,
      .it_p95 = NAN,
      .it_p99 = NAN,
      .it_mean = NAN,
      .it_cv = NAN,
  };
}

static json_t *real_or_null(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* JSON integers stop at 2^63 - 1; beyond, a count is a real, exact to 53 bits. */
static json_t *count(uint64_t v) {
  return v <= (uint64_t)INT64_MAX ? json_integer((json_int_t)v) : json_real((double)v);
}

static json_t *reals(const double *v, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < n; i++)
    json_array_append_new(a, real_or_null(v[i]));
  return a;
}

static json_t *taken_or_null(json_t **at) {
  json_t *v = *at;
  *at = NULL;
  return v ? v : json_null();
}

static json_t *object_of(rigor_sample_record_t *x, int parent);

/* Member `id`'s value, or NULL when the member is left out. */
static json_t *value_of(rigor_sample_record_t *x, int id) {
  const rigor_sample_member_t *m = &rigor_sample_members[id];
  char *at = (char *)x + m->written_from;
  switch (m->kind) {
  case RIGOR_SAMPLE_CONST:
    return json_string(m->constant);
  case RIGOR_SAMPLE_INDEX:
    return *(int64_t *)at >= 0 ? json_integer(*(int64_t *)at) : NULL;
  case RIGOR_SAMPLE_TEXT:
    return *(const char **)at ? json_string(*(const char **)at) : json_null();
  case RIGOR_SAMPLE_STATUS: {
    rigor_sample_status_t s = *(rigor_sample_status_t *)at;
    return s < RIGOR_SAMPLE_STATUS_COUNT ? json_string(rigor_sample_status_names[s]) : json_null();
  }
  case RIGOR_SAMPLE_REAL:
    return real_or_null(*(double *)at);
  case RIGOR_SAMPLE_UINT:
    return count(*(uint64_t *)at);
  case RIGOR_SAMPLE_OBJECT:
    if (m->written_from != RIGOR_SAMPLE_NOWHERE && !*(bool *)at) return json_null();
    return object_of(x, id);
  case RIGOR_SAMPLE_REALS:
    return reals(*(const double **)at, *(size_t *)(at + sizeof(const double *)));
  case RIGOR_SAMPLE_METRICS:
  case RIGOR_SAMPLE_JSON:
    return taken_or_null((json_t **)at);
  }
  return NULL;
}

/* The members whose parent is `parent`, in the table's order. */
static json_t *object_of(rigor_sample_record_t *x, int parent) {
  json_t *o = json_object();
  for (int id = 0; o && id < RIGOR_SAMPLE_MEMBER_COUNT; id++) {
    if (rigor_sample_members[id].parent != parent) continue;
    json_t *v = value_of(x, id);
    if (v) json_object_set_new(o, rigor_sample_members[id].key, v);
  }
  return o;
}

json_t *rigor_record_sample(rigor_sample_record_t *x) {
  json_t *rec = object_of(x, RIGOR_SAMPLE_TOP);
  rigor_sample_record_drop(x); /* what a member left out did not take */
  return rec;
}

void rigor_sample_record_drop(rigor_sample_record_t *x) {
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++) {
    const rigor_sample_member_t *m = &rigor_sample_members[id];
    if (m->kind != RIGOR_SAMPLE_METRICS && m->kind != RIGOR_SAMPLE_JSON) continue;
    json_t **at = (json_t **)((char *)x + m->written_from);
    json_decref(*at);
    *at = NULL;
  }
}
