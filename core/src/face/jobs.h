/* The experiments of a config as the runner's jobs. */
#ifndef RIGOR_JOBS_H
#define RIGOR_JOBS_H

#include <stddef.h>

#include "experiment.h"
#include "runner.h"

typedef struct rigor_jobs {
  rigor_job_t *jobs;
  size_t n;
} rigor_jobs_t;

/* The jobs borrow from cfg, which must outlive them. Returns 0 or RIGOR_ENOMEM. */
int rigor_jobs_build(const rigor_config_t *cfg, rigor_jobs_t *out);
void rigor_jobs_free(rigor_jobs_t *jobs);

#endif
