#include "stream_faults.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const stream_fault_names[] = {"none", "corrupt", "nan", "cut", "skip", NULL};

int stream_fault_parse(int32_t kind, const char *kernels, stream_fault_t *out, char *why,
                       size_t whylen) {
  *out = (stream_fault_t){.kind = (stream_fault_kind_t)kind};
  if (kind == STREAM_FAULT_NONE) return 0;
  const char *p = kernels ? kernels : "";
  while (*p) {
    const size_t len = strcspn(p, ",");
    int found = -1;
    for (int k = 0; k < STREAM_N_KERNELS; k++)
      if (strlen(stream_kernel_info[k].name) == len &&
          strncmp(stream_kernel_info[k].name, p, len) == 0)
        found = k;
    if (found < 0) {
      snprintf(why, whylen, "fault_kernels: unknown kernel '%.*s'", (int)len, p);
      return -1;
    }
    out->kernels[found] = true;
    p += len + (p[len] == ',');
  }
  for (int k = 0; k < STREAM_N_KERNELS; k++)
    if (out->kernels[k]) return 0;
  snprintf(why, whylen, "fault '%s' needs fault_kernels, e.g. \"scale,add,triad\"",
           stream_fault_names[kind]);
  return -1;
}

static void *output_array(const stream_job_t *job, stream_kernel_t kernel) {
  switch (kernel) {
  case STREAM_SCALE:
    return job->b;
  case STREAM_TRIAD:
  case STREAM_NSTREAM:
    return job->a;
  default:
    return job->c;
  }
}

static void damage(const stream_job_t *job, stream_kernel_t kernel, stream_dtype_t dtype,
                   bool with_nan) {
  if (kernel == STREAM_DOT) {
    *job->dot = with_nan ? NAN : *job->dot + 1.0;
    return;
  }
  const size_t j = job->n / 2;
  if (dtype == STREAM_FLOAT) {
    float *x = output_array(job, kernel);
    x[j] = with_nan ? NAN : x[j] + 1.0f;
  } else {
    double *x = output_array(job, kernel);
    x[j] = with_nan ? NAN : x[j] + 1.0;
  }
}

size_t stream_fault_execute(const stream_fault_t *f, stream_kernel_t kernel, stream_kernel_fn fn,
                            const stream_job_t *job, uint64_t n, stream_dtype_t dtype) {
  const stream_fault_kind_t kind = f->kernels[kernel] ? f->kind : STREAM_FAULT_NONE;
  stream_job_t cut = *job;
  if (kind == STREAM_FAULT_CUT && cut.n > STREAM_FAULT_CUT_BOUND) cut.n = STREAM_FAULT_CUT_BOUND;
  size_t executed = 0;
  if (kind != STREAM_FAULT_SKIP)
    for (uint64_t i = 0; i < n; i++)
      executed = fn(&cut);
  if (kind == STREAM_FAULT_CORRUPT || kind == STREAM_FAULT_NAN)
    damage(job, kernel, dtype, kind == STREAM_FAULT_NAN);
  return executed;
}
