#include "sample_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "rigor/plugin.h"
#include "sample_record.h"

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t cap2 = *cap ? *cap : 16;
  while (cap2 < need)
    cap2 *= 2;
  void *q = realloc(*p, cap2 * elem);
  if (!q) return RIGOR_ENOMEM;
  *p = q;
  *cap = cap2;
  return 0;
}

static int read_metrics(const json_t *metrics, rigor_sample_scratch_t *sc,
                        const rigor_sample_metric_t **out, size_t *n) {
  if (!json_is_object(metrics)) return 0;
  if (grow((void **)&sc->metrics, &sc->metrics_cap, json_object_size(metrics), sizeof *sc->metrics))
    return RIGOR_ENOMEM;
  const char *key;
  json_t *val;
  json_object_foreach((json_t *)metrics, key, val) {
    if (json_is_number(val))
      sc->metrics[(*n)++] = (rigor_sample_metric_t){key, json_number_value(val)};
  }
  *out = sc->metrics;
  return 0;
}

static int read_reals(const json_t *raw, rigor_sample_scratch_t *sc, const double **out,
                      size_t *n) {
  if (!json_is_array(raw)) return 0;
  if (grow((void **)&sc->raw, &sc->raw_cap, json_array_size(raw), sizeof *sc->raw))
    return RIGOR_ENOMEM;
  size_t i;
  const json_t *v;
  json_array_foreach(raw, i, v) sc->raw[i] = rigor_json_number(v);
  *out = sc->raw;
  *n = json_array_size(raw);
  return 0;
}

/* Member `m` of the record, where the table says the reader puts it. */
static int read_member(const rigor_sample_member_t *m, const json_t *v, rigor_sample_scratch_t *sc,
                       rigor_sample_t *out) {
  char *at = (char *)out + m->read_into;
  switch (m->kind) {
  case RIGOR_SAMPLE_INDEX:
    *(int64_t *)at = json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
    return 0;
  case RIGOR_SAMPLE_TEXT:
    *(const char **)at = json_string_value(v);
    return 0;
  case RIGOR_SAMPLE_STATUS:
    *(rigor_sample_status_t *)at = rigor_sample_status_parse(json_string_value(v));
    return 0;
  case RIGOR_SAMPLE_REAL:
  case RIGOR_SAMPLE_UINT:
    *(double *)at = rigor_json_number(v);
    return 0;
  case RIGOR_SAMPLE_OBJECT:
    *(bool *)at = json_is_object(v);
    return 0;
  case RIGOR_SAMPLE_REALS:
    return read_reals(v, sc, (const double **)at, (size_t *)(at + sizeof(const double *)));
  case RIGOR_SAMPLE_METRICS:
    return read_metrics(v, sc, (const rigor_sample_metric_t **)at,
                        (size_t *)(at + sizeof(const rigor_sample_metric_t *)));
  case RIGOR_SAMPLE_CONST:
  case RIGOR_SAMPLE_JSON:
    return 0;
  }
  return 0;
}

int rigor__sample_from_json(const json_t *rec, rigor_sample_scratch_t *sc, rigor_sample_t *out) {
  memset(out, 0, sizeof *out);
  out->from_json = rec;
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++) {
    const rigor_sample_member_t *m = &rigor_sample_members[id];
    if (m->read_into == RIGOR_SAMPLE_NOWHERE) continue;
    /* A member of an object that is not one reads as absent. */
    const json_t *holder = m->parent == RIGOR_SAMPLE_TOP
                               ? rec
                               : json_object_get(rec, rigor_sample_members[m->parent].key);
    int rc = read_member(m, json_object_get(holder, m->key), sc, out);
    if (rc) return rc;
  }
  return 0;
}

void rigor__sample_scratch_free(rigor_sample_scratch_t *sc) {
  free(sc->metrics);
  free(sc->raw);
  memset(sc, 0, sizeof *sc);
}
