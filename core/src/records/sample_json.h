/* A sample record that jansson parsed, read into a rigor_sample_t: the reference reading, which
 * sample_dom matches on every clean line. */
#ifndef RIGOR_SAMPLE_JSON_H
#define RIGOR_SAMPLE_JSON_H

#include <jansson.h>

#include "reader.h"

/* Arrays the samples point into, reused from one record to the next. */
typedef struct rigor_sample_scratch {
  rigor_sample_metric_t *metrics;
  size_t metrics_cap;
  double *raw;
  size_t raw_cap;
} rigor_sample_scratch_t;

/* Fills *out from `rec`, which has passed rigor__record_check and stays alive while *out is
 * used. RIGOR_ENOMEM when the scratch cannot grow. */
int rigor__sample_from_json(const json_t *rec, rigor_sample_scratch_t *scratch,
                            rigor_sample_t *out);
void rigor__sample_scratch_free(rigor_sample_scratch_t *scratch);

#endif
