#include "sample_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "rigor/plugin.h"

static int64_t index_at(const json_t *rec, const char *key) {
  const json_t *v = json_object_get(rec, key);
  return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

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

static int read_metrics(const json_t *metrics, rigor_sample_scratch_t *sc, rigor_sample_t *out) {
  if (!json_is_object(metrics)) return 0;
  if (grow((void **)&sc->metrics, &sc->metrics_cap, json_object_size(metrics), sizeof *sc->metrics))
    return RIGOR_ENOMEM;
  const char *key;
  json_t *val;
  json_object_foreach((json_t *)metrics, key, val) {
    if (json_is_number(val))
      sc->metrics[out->n_metrics++] = (rigor_sample_metric_t){key, json_number_value(val)};
  }
  out->metrics = sc->metrics;
  return 0;
}

static int read_iterations(const json_t *it, rigor_sample_scratch_t *sc, rigor_sample_t *out) {
  if (!json_is_object(it)) return 0;
  out->has_iterations = true;
  out->it_n = rigor_json_number_at(it, "n");
  out->it_min = rigor_json_number_at(it, "min");
  out->it_max = rigor_json_number_at(it, "max");
  out->it_p50 = rigor_json_number_at(it, "p50");
  out->it_p95 = rigor_json_number_at(it, "p95");
  out->it_p99 = rigor_json_number_at(it, "p99");
  out->it_mean = rigor_json_number_at(it, "mean");
  out->it_cv = rigor_json_number_at(it, "cv");
  const json_t *raw = json_object_get(it, "raw");
  if (!json_is_array(raw)) return 0;
  if (grow((void **)&sc->raw, &sc->raw_cap, json_array_size(raw), sizeof *sc->raw))
    return RIGOR_ENOMEM;
  size_t i;
  const json_t *v;
  json_array_foreach(raw, i, v) sc->raw[i] = rigor_json_number(v);
  out->raw = sc->raw;
  out->n_raw = json_array_size(raw);
  return 0;
}

int rigor__sample_from_json(const json_t *rec, rigor_sample_scratch_t *sc, rigor_sample_t *out) {
  memset(out, 0, sizeof *out);
  out->experiment = json_string_value(json_object_get(rec, "experiment"));
  out->run = index_at(rec, "run");
  out->attempt = index_at(rec, "attempt");
  out->variant = index_at(rec, "variant");
  out->point = index_at(rec, "point");
  out->cycle = index_at(rec, "cycle");
  out->arm = index_at(rec, "arm");
  out->slot = index_at(rec, "slot");
  out->status = json_string_value(json_object_get(rec, "status"));
  out->window = json_string_value(json_object_get(rec, "window"));
  out->point_label = json_string_value(json_object_get(rec, "point_label"));
  out->time_s = rigor_json_number_at(rec, "time_s");
  out->iters = rigor_json_number_at(rec, "iters");
  out->agg = rigor_json_number_at(rec, "agg");
  out->bytes = rigor_json_number_at(rec, "bytes");
  out->flops = rigor_json_number_at(rec, "flops");
  out->bus_factor = rigor_json_number_at(rec, "bus_factor");
  const json_t *rates = json_object_get(rec, "rates");
  out->bytes_per_s = rigor_json_number_at(rates, "bytes_per_s");
  out->flops_per_s = rigor_json_number_at(rates, "flops_per_s");
  out->busbw_bytes_per_s = rigor_json_number_at(rates, "busbw_bytes_per_s");
  out->check_wrong = rigor_json_number_at(json_object_get(rec, "check"), "wrong");
  out->it_n = out->it_min = out->it_max = out->it_p50 = out->it_p95 = out->it_p99 = out->it_mean =
      out->it_cv = NAN;
  out->from_json = rec;
  int rc = read_metrics(json_object_get(rec, "metrics"), sc, out);
  return rc ? rc : read_iterations(json_object_get(rec, "iterations"), sc, out);
}

void rigor__sample_scratch_free(rigor_sample_scratch_t *sc) {
  free(sc->metrics);
  free(sc->raw);
  memset(sc, 0, sizeof *sc);
}
