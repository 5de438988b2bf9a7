/* The results reader on any bytes: JSON Lines with a tolerated truncated last line. Each line its
 * fast path reads as a sample must be a sample that jansson reads the same way, member for
 * member; anything else aborts. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "reader.h"
#include "record_rules.h"
#include "sample_dom.h"
#include "sample_json.h"

static int touch_sample(void *arg, const rigor_sample_t *s) {
  (void)arg;
  json_decref(rigor_sample_point_params(s));
  return 0;
}

static bool same_number(double a, double b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static bool same_string(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_sample(const rigor_sample_t *a, const rigor_sample_t *b) {
  const double x[] = {a->time_s,      a->iters,       a->agg,
                      a->bytes,       a->flops,       a->bus_factor,
                      a->bytes_per_s, a->flops_per_s, a->busbw_bytes_per_s,
                      a->check_wrong, a->it_n,        a->it_min,
                      a->it_max,      a->it_p50,      a->it_p95,
                      a->it_p99,      a->it_mean,     a->it_cv};
  const double y[] = {b->time_s,      b->iters,       b->agg,
                      b->bytes,       b->flops,       b->bus_factor,
                      b->bytes_per_s, b->flops_per_s, b->busbw_bytes_per_s,
                      b->check_wrong, b->it_n,        b->it_min,
                      b->it_max,      b->it_p50,      b->it_p95,
                      b->it_p99,      b->it_mean,     b->it_cv};
  for (size_t i = 0; i < sizeof x / sizeof *x; i++)
    if (!same_number(x[i], y[i])) return false;
  if (a->run != b->run || a->attempt != b->attempt || a->variant != b->variant ||
      a->point != b->point || a->cycle != b->cycle || a->arm != b->arm || a->slot != b->slot ||
      a->has_iterations != b->has_iterations || a->n_metrics != b->n_metrics ||
      a->n_raw != b->n_raw)
    return false;
  if (a->status != b->status) return false;
  if (!same_string(a->experiment, b->experiment) ||
      !same_string(a->window, b->window) || !same_string(a->point_label, b->point_label))
    return false;
  for (size_t m = 0; m < a->n_metrics; m++)
    if (strcmp(a->metrics[m].name, b->metrics[m].name) != 0 ||
        !same_number(a->metrics[m].value, b->metrics[m].value))
      return false;
  for (size_t i = 0; i < a->n_raw; i++)
    if (!same_number(a->raw[i], b->raw[i])) return false;
  json_t *pa = rigor_sample_point_params(a), *pb = rigor_sample_point_params(b);
  char *da = pa ? json_dumps(pa, JSON_ENCODE_ANY) : NULL;
  char *db = pb ? json_dumps(pb, JSON_ENCODE_ANY) : NULL;
  bool same = same_string(da, db);
  free(da), free(db);
  json_decref(pa), json_decref(pb);
  return same;
}

static void check_line(rigor_sample_dom_t *d, rigor_sample_scratch_t *scratch, const char *line,
                       size_t len) {
  char *padded = calloc(1, len + RIGOR_SAMPLE_DOM_PADDING);
  if (!padded) return;
  memcpy(padded, line, len);
  rigor_sample_t fast;
  if (rigor__sample_dom_parse(d, padded, len, &fast) == 1) {
    json_error_t jerr;
    json_t *rec = json_loadb(padded, len, 0, &jerr);
    const char *type = NULL;
    char err[512];
    rigor_sample_t reference;
    if (!rec || rigor__record_check(rec, "fuzz", 1, &type, err, sizeof err) != 0 ||
        strcmp(type, "sample") != 0 || rigor__sample_from_json(rec, scratch, &reference) != 0 ||
        !same_sample(&fast, &reference))
      abort();
    json_decref(rec);
  }
  free(padded);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_file_write("results.jsonl", data, size);
  rigor_results_callbacks_t cb = {.sample = touch_sample};
  bool truncated = false;
  char err[4096];
  rigor_results_read(path, &cb, &truncated, err, sizeof err);

  rigor_sample_dom_t *d = rigor__sample_dom_new();
  rigor_sample_scratch_t scratch = {0};
  const char *text = (const char *)data, *end = text + size;
  while (d && text < end) {
    const char *nl = memchr(text, '\n', (size_t)(end - text));
    size_t len = nl ? (size_t)(nl - text) : (size_t)(end - text);
    check_line(d, &scratch, text, len);
    text += len + 1;
  }
  rigor__sample_scratch_free(&scratch);
  rigor__sample_dom_free(d);
  return 0;
}
