#include "stream_kernels.h"

#include <string.h>

#include "stream_replay.h"

/* The timed plain loops are vectorized (`omp for simd`); GCC compiles each of them once more for
 * AVX2 and picks the build for the CPU at load time (an ifunc), so the loops use 256-bit vectors
 * where the CPU has them without the plugin being built for one CPU. AVX-512 is left out: for
 * these loops it moved no more bytes than AVX2 on the Intel guest measured (the README), and on
 * some Xeons 512-bit code lowers the core clock. Other compilers and architectures vectorize for
 * the build's target alone. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define STREAM_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#define STREAM_VECTOR_ISA    (__builtin_cpu_supports("avx2") ? "avx2" : "sse2")
#else
#define STREAM_VECTOR_CLONES
#define STREAM_VECTOR_ISA "baseline"
#endif

#define STREAM_T       double
#define STREAM_NAME(k) plain_double_##k
#include "stream_kernels_template.h"

#define STREAM_T       float
#define STREAM_NAME(k) plain_float_##k
#include "stream_kernels_template.h"

const char *stream_kernels_plain_isa(void) {
  return STREAM_VECTOR_ISA;
}

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
