#include "stream_kernels.h"

#include <stdint.h>
#include <stdio.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* The span the non-temporal copy reads two of at once: a page. */
#define STREAM_NT_SPAN 4096u

/* Elements before `p` reaches a `vector`-byte boundary, at most n. */
static size_t stream_nt_head(const void *p, size_t n, size_t vector, size_t element) {
  const size_t misalign = (size_t)((uintptr_t)p % vector);
  const size_t head = misalign ? (vector - misalign) / element : 0;
  return head < n ? head : n;
}

#define NT_TARGET  __attribute__((target("avx512f")))
#define NT_T       double
#define NT_V       __m512d
#define NT_W       8
#define NT_LOADU   _mm512_loadu_pd
#define NT_STREAM  _mm512_stream_pd
#define NT_ADD     _mm512_add_pd
#define NT_MUL     _mm512_mul_pd
#define NT_SET1    _mm512_set1_pd
#define NT_NAME(k) nt_avx512_double_##k
#include "stream_kernels_nt_template.h"

#define NT_T       float
#define NT_V       __m512
#define NT_W       16
#define NT_LOADU   _mm512_loadu_ps
#define NT_STREAM  _mm512_stream_ps
#define NT_ADD     _mm512_add_ps
#define NT_MUL     _mm512_mul_ps
#define NT_SET1    _mm512_set1_ps
#define NT_NAME(k) nt_avx512_float_##k
#include "stream_kernels_nt_template.h"
#undef NT_TARGET

#define NT_TARGET  __attribute__((target("avx")))
#define NT_T       double
#define NT_V       __m256d
#define NT_W       4
#define NT_LOADU   _mm256_loadu_pd
#define NT_STREAM  _mm256_stream_pd
#define NT_ADD     _mm256_add_pd
#define NT_MUL     _mm256_mul_pd
#define NT_SET1    _mm256_set1_pd
#define NT_NAME(k) nt_avx_double_##k
#include "stream_kernels_nt_template.h"

#define NT_T       float
#define NT_V       __m256
#define NT_W       8
#define NT_LOADU   _mm256_loadu_ps
#define NT_STREAM  _mm256_stream_ps
#define NT_ADD     _mm256_add_ps
#define NT_MUL     _mm256_mul_ps
#define NT_SET1    _mm256_set1_ps
#define NT_NAME(k) nt_avx_float_##k
#include "stream_kernels_nt_template.h"
#undef NT_TARGET

#define NT_TARGET  __attribute__((target("sse2")))
#define NT_T       double
#define NT_V       __m128d
#define NT_W       2
#define NT_LOADU   _mm_loadu_pd
#define NT_STREAM  _mm_stream_pd
#define NT_ADD     _mm_add_pd
#define NT_MUL     _mm_mul_pd
#define NT_SET1    _mm_set1_pd
#define NT_NAME(k) nt_sse2_double_##k
#include "stream_kernels_nt_template.h"

#define NT_T       float
#define NT_V       __m128
#define NT_W       4
#define NT_LOADU   _mm_loadu_ps
#define NT_STREAM  _mm_stream_ps
#define NT_ADD     _mm_add_ps
#define NT_MUL     _mm_mul_ps
#define NT_SET1    _mm_set1_ps
#define NT_NAME(k) nt_sse2_float_##k
#include "stream_kernels_nt_template.h"

const stream_kernel_fn *stream_kernels_nt(stream_dtype_t dtype, const char **isa, char *why,
                                          size_t whylen) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    *isa = "avx512f";
    return dtype == STREAM_FLOAT ? nt_avx512_float_table : nt_avx512_double_table;
  }
  if (__builtin_cpu_supports("avx")) {
    *isa = "avx";
    return dtype == STREAM_FLOAT ? nt_avx_float_table : nt_avx_double_table;
  }
  if (__builtin_cpu_supports("sse2")) {
    *isa = "sse2";
    return dtype == STREAM_FLOAT ? nt_sse2_float_table : nt_sse2_double_table;
  }
  snprintf(why, whylen,
           "nt_stores: this CPU has none of AVX-512F, AVX and SSE2 streaming stores; "
           "set nt_stores: false");
  return NULL;
}

#else

const stream_kernel_fn *stream_kernels_nt(stream_dtype_t dtype, const char **isa, char *why,
                                          size_t whylen) {
  (void)dtype;
  *isa = "none";
  snprintf(why, whylen,
           "nt_stores: streaming-store kernels exist for x86 (AVX-512F, AVX, SSE2) only, and this "
           "build targets another architecture; set nt_stores: false");
  return NULL;
}

#endif
