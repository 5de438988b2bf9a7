/* Reading results files as a stream of records, one line at a time, in bounded memory: samples
 * come as a small struct, every other record as a JSON object. */
#ifndef RIGOR_READER_H
#define RIGOR_READER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"

typedef struct rigor_sample_metric {
  const char *name;
  double value;
} rigor_sample_metric_t;

/* The members of a sample record that readers use. Indices are -1 when absent or null (the
 * reader has checked the others against their bounds); strings are NULL and numbers NaN when
 * absent or of another type, as rigor_json_number reads them; the status RIGOR_SAMPLE_UNKNOWN
 * when absent or of another name. The table of sample_record.h says where each member goes. */
typedef struct rigor_sample {
  const char *experiment;
  size_t line; /* in the file, from 1 */
  int64_t run, attempt, variant, point, cycle;
  int64_t arm, slot; /* interleaved arms: the arm's index in its run, its position in the cycle */
  rigor_sample_status_t status;
  const char *window, *point_label;
  double time_s, iters, agg, bytes, flops, bus_factor;
  double bytes_per_s, flops_per_s, busbw_bytes_per_s; /* "rates" */
  double check_wrong;                                 /* "check": {"wrong"} */
  /* The numeric members of "metrics", each name once (the last value), in the record's order. */
  const rigor_sample_metric_t *metrics;
  size_t n_metrics;
  /* "iterations", when it is an object: its summary, and "raw" with NaN for what is not a
   * number (n_raw 0 when "raw" is no array). */
  bool has_iterations;
  double it_n, it_min, it_max, it_p50, it_p95, it_p99, it_mean, it_cv;
  const double *raw;
  size_t n_raw;
  /* The reader's hold on the record, for rigor_sample_point_params; not for callers. */
  const json_t *from_json;
  struct rigor_sample_dom *from_dom;
} rigor_sample_t;

/* "point_params" as a new JSON value (any type, null included), or NULL when absent. Built on
 * demand, so a reader that needs it once per point pays for it once; only inside the callback. */
json_t *rigor_sample_point_params(const rigor_sample_t *s);

/* Called per record in file order. A nonzero return stops the read and is returned as it is,
 * with `err` left to the callback. Everything passed is valid during the call only. */
typedef struct rigor_results_callbacks {
  int (*sample)(void *arg, const rigor_sample_t *s);
  /* Every other record (experiment, run, telemetry); take a reference to keep it. */
  int (*record)(void *arg, json_t *rec, const char *type, size_t line);
  void *arg;
  /* Samples too come whole, as JSON objects, to `record`: every line through jansson, for the
   * readers that keep records as they are (the store). */
  bool whole_records;
} rigor_results_callbacks_t;

/* Reads a results file record by record; a NULL callback skips its records. A truncated last
 * line (what a killed writer leaves) is skipped with *truncated set; a malformed line elsewhere
 * stops the read with "file:line:col: message" in `err`. Memory does not grow with the file: a
 * read buffer (1 MiB, or the longest line) and the parser's buffers for one line. */
int rigor_results_read(const char *path, const rigor_results_callbacks_t *cb, bool *truncated,
                       char *err, size_t errlen);

/* The same callbacks over records already in memory (the store's), record i counted as line
 * i + 1 of `source` in messages. */
int rigor_results_feed(const json_t *records, const rigor_results_callbacks_t *cb,
                       const char *source, char *err, size_t errlen);

/* Every record of a file, samples included, as one JSON array: memory grows with the file (about
 * ten times its size), so only for readers that keep everything anyway. */
int rigor_results_load(const char *path, json_t **records, bool *truncated, char *err,
                       size_t errlen);

#endif
