#include "stream_kernels.h"

#include <string.h>

#include "stream_replay.h"

#define STREAM_T       double
#define STREAM_NAME(k) plain_double_##k
#include "stream_kernels_template.h"

#define STREAM_T       float
#define STREAM_NAME(k) plain_float_##k
#include "stream_kernels_template.h"

const stream_kernel_fn *stream_kernels_plain(stream_dtype_t dtype) {
  return dtype == STREAM_FLOAT ? plain_float_table : plain_double_table;
}

stream_kernel_fn stream_kernel_copy_memcpy(stream_dtype_t dtype) {
  return dtype == STREAM_FLOAT ? plain_float_copy_memcpy : plain_double_copy_memcpy;
}

void stream_kernels_first_touch(stream_dtype_t dtype, const stream_job_t *job) {
  if (dtype == STREAM_FLOAT)
    plain_float_first_touch(job);
  else
    plain_double_first_touch(job);
}

void stream_kernels_rescale(stream_dtype_t dtype, const stream_job_t *job, double factor) {
  if (dtype == STREAM_FLOAT)
    plain_float_rescale(job, factor);
  else
    plain_double_rescale(job, factor);
}
