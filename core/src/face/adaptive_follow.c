/* The records adaptive replication follows: those the runner appends, and on --resume those the
 * results file held before. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

int rigor_adaptive_on_record(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                             size_t errlen) {
  return stoppable(job) ? follow(arg, job->output, rec, err, errlen) : 0;
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

int rigor_adaptive_resume(rigor_adaptive_t *ad, const rigor_job_t *job, char *err, size_t errlen) {
  if (!stoppable(job) || access(job->output, F_OK) != 0) return 0;
  resumed_t r = {.ad = ad, .job = job, .err = err, .errlen = errlen};
  rigor_results_callbacks_t cb = {.record = take_resumed, .arg = &r, .whole_records = true};
  bool truncated = false;
  return rigor_results_read(job->output, &cb, &truncated, err, errlen);
}

void rigor_adaptive_free(rigor_adaptive_t *ad) {
  rigor_precision_acc_free(ad->acc);
  ad->acc = NULL;
}
