/* The plain kernels for one element type. stream_kernels.c includes this once per dtype with
 * STREAM_T (the element type) and STREAM_NAME(k) (the function name for kernel k) defined, and
 * undefines both at its end. */

static void STREAM_NAME(first_touch)(const stream_job_t *job) {
  STREAM_T *restrict a = job->a;
  STREAM_T *restrict b = job->b;
  STREAM_T *restrict c = job->c;
  const size_t n = job->n;
#pragma omp parallel for schedule(static) num_threads(job->threads)
  for (size_t j = 0; j < n; j++) {
    a[j] = (STREAM_T)STREAM_INIT_A;
    b[j] = (STREAM_T)STREAM_INIT_B;
    c[j] = (STREAM_T)STREAM_INIT_C;
  }
}

static void STREAM_NAME(rescale)(const stream_job_t *job, double factor) {
  STREAM_T *restrict a = job->a;
  STREAM_T *restrict b = job->b;
  STREAM_T *restrict c = job->c;
  const STREAM_T f = (STREAM_T)factor;
  const size_t n = job->n;
#pragma omp parallel for schedule(static) num_threads(job->threads)
  for (size_t j = 0; j < n; j++) {
    a[j] *= f;
    b[j] *= f;
    c[j] *= f;
  }
}

STREAM_VECTOR_CLONES static size_t STREAM_NAME(copy)(const stream_job_t *job) {
  const STREAM_T *restrict a = job->a;
  STREAM_T *restrict c = job->c;
  const size_t n = job->n;
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for simd schedule(static) nowait
    for (size_t j = 0; j < n; j++)
      c[j] = a[j];
  }
  return n;
}

/* STREAM's own copy: GCC turns stream.c's loop into one memcpy per thread over the thread's
 * static chunk, so the C library picks the stores (non-temporal above its threshold) on every
 * CPU. The chunks are the static schedule's, which placed the pages at first touch. */
static size_t STREAM_NAME(copy_memcpy)(const stream_job_t *job) {
  const STREAM_T *restrict a = job->a;
  STREAM_T *restrict c = job->c;
  const size_t n = job->n;
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
    size_t first, count;
    stream_static_chunk(n, (size_t)omp_get_thread_num(), (size_t)omp_get_num_threads(), &first,
                        &count);
    if (count) memcpy(c + first, a + first, count * sizeof(STREAM_T));
  }
  return n;
}

STREAM_VECTOR_CLONES static size_t STREAM_NAME(scale)(const stream_job_t *job) {
  STREAM_T *restrict b = job->b;
  const STREAM_T *restrict c = job->c;
  const STREAM_T s = (STREAM_T)job->scalar;
  const size_t n = job->n;
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for simd schedule(static) nowait
    for (size_t j = 0; j < n; j++)
      b[j] = s * c[j];
  }
  return n;
}

STREAM_VECTOR_CLONES static size_t STREAM_NAME(add)(const stream_job_t *job) {
  const STREAM_T *restrict a = job->a;
  const STREAM_T *restrict b = job->b;
  STREAM_T *restrict c = job->c;
  const size_t n = job->n;
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for simd schedule(static) nowait
    for (size_t j = 0; j < n; j++)
      c[j] = a[j] + b[j];
  }
  return n;
}

STREAM_VECTOR_CLONES static size_t STREAM_NAME(triad)(const stream_job_t *job) {
  STREAM_T *restrict a = job->a;
  const STREAM_T *restrict b = job->b;
  const STREAM_T *restrict c = job->c;
  const STREAM_T s = (STREAM_T)job->scalar;
  const size_t n = job->n;
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for simd schedule(static) nowait
    for (size_t j = 0; j < n; j++)
      a[j] = b[j] + s * c[j];
  }
  return n;
}

/* Eight independent partial sums per block keep the reduction off one add's latency; the sum is
 * kept in double so a float dot stays checkable at any length. */
STREAM_VECTOR_CLONES static size_t STREAM_NAME(dot)(const stream_job_t *job) {
  const STREAM_T *restrict a = job->a;
  const STREAM_T *restrict b = job->b;
  const size_t n = job->n;
  const size_t blocks = n / 8;
  double sum = 0.0;
#pragma omp parallel num_threads(job->threads) reduction(+ : sum)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for schedule(static) nowait
    for (size_t k = 0; k < blocks; k++) {
      const STREAM_T *x = a + 8 * k;
      const STREAM_T *y = b + 8 * k;
      double p[8];
      for (int l = 0; l < 8; l++)
        p[l] = (double)x[l] * (double)y[l];
      sum += ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
    }
  }
  for (size_t j = 8 * blocks; j < n; j++)
    sum += (double)a[j] * (double)b[j];
  *job->dot = sum;
  return n;
}

STREAM_VECTOR_CLONES static size_t STREAM_NAME(nstream)(const stream_job_t *job) {
  STREAM_T *restrict a = job->a;
  const STREAM_T *restrict b = job->b;
  const STREAM_T *restrict c = job->c;
  const STREAM_T s = (STREAM_T)job->scalar;
  const size_t n = job->n;
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for simd schedule(static) nowait
    for (size_t j = 0; j < n; j++)
      a[j] += b[j] + s * c[j];
  }
  return n;
}

static const stream_kernel_fn STREAM_NAME(table)[STREAM_N_KERNELS] = {
    [STREAM_COPY] = STREAM_NAME(copy), [STREAM_SCALE] = STREAM_NAME(scale),
    [STREAM_ADD] = STREAM_NAME(add),   [STREAM_TRIAD] = STREAM_NAME(triad),
    [STREAM_DOT] = STREAM_NAME(dot),   [STREAM_NSTREAM] = STREAM_NAME(nstream),
};

#undef STREAM_T
#undef STREAM_NAME
