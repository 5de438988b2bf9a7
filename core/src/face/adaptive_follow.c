/* The records adaptive replication follows: those the runner appends, and on --resume those the
 * results file held before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adaptive.h"
#include "errors.h"
#include "reader.h"

/* Only an experiment that something may stop needs its records followed. */
static bool stoppable(const rigor_job_t *job) {
  return job->precision > 0 || job->deadline_s > 0;
}

static int follow(rigor_adaptive_t *ad, const char *source, const json_t *rec, char *err,
                  size_t errlen) {
  if (!ad->acc && !(ad->acc = rigor_precision_acc_new())) {
    snprintf(err, errlen, "%s: %s", source, rigor_strerror(RIGOR_ENOMEM));
    return RIGOR_ENOMEM;
  }
  return rigor_precision_acc_feed(ad->acc, source, rec, err, errlen);
}

typedef struct resumed {
  rigor_adaptive_t *ad;
  const rigor_job_t *job;
  char *err;
  size_t errlen;
} resumed_t;

static int take_resumed(void *arg, json_t *rec, const char *type, size_t line) {
  (void)type, (void)line;
  resumed_t *r = arg;
  const char *name = json_string_value(json_object_get(rec, "experiment"));
  if (!name || strcmp(name, r->job->name) != 0) return 0;
  return follow(r->ad, r->job->output, rec, r->err, r->errlen);
}

/* Whether the job's resumed file has been read, marking it read. */
static bool first_look(rigor_adaptive_t *ad, const rigor_job_t *job, int *rc) {
  for (size_t i = 0; i < ad->n_read; i++)
    if (ad->read[i] == job) return false;
  const rigor_job_t **grown = realloc(ad->read, (ad->n_read + 1) * sizeof *grown);
  if (!grown) {
    *rc = RIGOR_ENOMEM;
    return false;
  }
  ad->read = grown;
  ad->read[ad->n_read++] = job;
  return true;
}

/* A resumed file is read once, at the job's first record or question, once the runner has
 * checked it and cut its tail: the records it held and the one just appended. */
static int read_resumed(rigor_adaptive_t *ad, const rigor_job_t *job, bool *read, char *err,
                        size_t errlen) {
  int rc = 0;
  *read = ad->resume && first_look(ad, job, &rc);
  if (rc) snprintf(err, errlen, "%s: %s", job->output, rigor_strerror(rc));
  if (rc || !*read) return rc;
  resumed_t r = {.ad = ad, .job = job, .err = err, .errlen = errlen};
  rigor_results_callbacks_t cb = {.record = take_resumed, .arg = &r, .whole_records = true};
  bool truncated = false;
  return rigor_results_read(job->output, &cb, &truncated, err, errlen);
}

int rigor_adaptive_on_record(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                             size_t errlen) {
  if (!stoppable(job)) return 0;
  bool read = false;
  int rc = read_resumed(arg, job, &read, err, errlen);
  return rc || read ? rc : follow(arg, job->output, rec, err, errlen);
}

int rigor_adaptive_catch_up(rigor_adaptive_t *ad, const rigor_job_t *job, char *err,
                            size_t errlen) {
  bool read = false;
  return stoppable(job) ? read_resumed(ad, job, &read, err, errlen) : 0;
}

void rigor_adaptive_free(rigor_adaptive_t *ad) {
  rigor_precision_acc_free(ad->acc);
  free(ad->read);
  ad->acc = NULL;
  ad->read = NULL;
  ad->n_read = 0;
}
