/* Streaming-store kernels for one element type and one vector width. stream_kernels_nt.c includes
 * this once per (ISA, dtype) with NT_T, NT_V (vector type), NT_W (lanes), NT_LOADU, NT_STREAM,
 * NT_ADD, NT_MUL, NT_SET1, NT_TARGET and NT_NAME(k) defined, and undefines all but NT_TARGET
 * (which the caller keeps for the ISA's other dtype) at its end.
 *
 * Streaming stores need an aligned destination: a short serial head runs up to the first aligned
 * element of the stored array, the parallel loop covers whole vectors, and a serial tail the
 * rest. Sources are loaded unaligned because `offset` shifts the arrays against each other. Each
 * thread fences its weakly ordered stores before the team's barrier. Multiplies and adds stay
 * separate so results round exactly as the scalar replay does. */

/* The copy reads two 4 KiB spans of the source at once, four vectors of each per step, and
 * prefetches both spans' next step: the layout glibc's memcpy uses above its non-temporal
 * threshold, where two streams per thread keep more DRAM pages and prefetchers busy than one.
 * Whole span pairs run in parallel; the remainder (under 8 KiB) is copied with plain stores. */
NT_TARGET static size_t NT_NAME(copy)(const stream_job_t *job) {
  const NT_T *restrict a = job->a;
  NT_T *restrict c = job->c;
  const size_t n = job->n;
  const size_t span = STREAM_NT_SPAN / sizeof(NT_T), step = 4 * NT_W;
  const size_t head = stream_nt_head(c, n, sizeof(NT_V), sizeof(NT_T));
  const size_t pairs = (n - head) / (2 * span);
  for (size_t j = 0; j < head; j++)
    c[j] = a[j];
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for schedule(static) nowait
    for (size_t p = 0; p < pairs; p++) {
      const NT_T *s = a + head + 2 * span * p;
      NT_T *d = c + head + 2 * span * p;
      for (size_t o = 0; o < span; o += step) {
        NT_V x[4], y[4];
        for (int v = 0; v < 4; v++) {
          x[v] = NT_LOADU(s + o + v * NT_W);
          y[v] = NT_LOADU(s + span + o + v * NT_W);
        }
        for (size_t line = 0; line < 4 * sizeof(NT_V); line += 64) {
          _mm_prefetch((const char *)(s + o + step) + line, _MM_HINT_T0);
          _mm_prefetch((const char *)(s + span + o + step) + line, _MM_HINT_T0);
        }
        for (int v = 0; v < 4; v++) {
          NT_STREAM(d + o + v * NT_W, x[v]);
          NT_STREAM(d + span + o + v * NT_W, y[v]);
        }
      }
    }
    _mm_sfence();
  }
  for (size_t j = head + 2 * span * pairs; j < n; j++)
    c[j] = a[j];
  return n;
}

NT_TARGET static size_t NT_NAME(scale)(const stream_job_t *job) {
  NT_T *restrict b = job->b;
  const NT_T *restrict c = job->c;
  const NT_T s = (NT_T)job->scalar;
  const size_t n = job->n;
  const size_t head = stream_nt_head(b, n, sizeof(NT_V), sizeof(NT_T));
  const size_t vectors = (n - head) / NT_W;
  for (size_t j = 0; j < head; j++)
    b[j] = s * c[j];
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
    const NT_V vs = NT_SET1(s);
#pragma omp for schedule(static) nowait
    for (size_t v = 0; v < vectors; v++) {
      const size_t j = head + v * NT_W;
      NT_STREAM(b + j, NT_MUL(vs, NT_LOADU(c + j)));
    }
    _mm_sfence();
  }
  for (size_t j = head + vectors * NT_W; j < n; j++)
    b[j] = s * c[j];
  return n;
}

NT_TARGET static size_t NT_NAME(add)(const stream_job_t *job) {
  const NT_T *restrict a = job->a;
  const NT_T *restrict b = job->b;
  NT_T *restrict c = job->c;
  const size_t n = job->n;
  const size_t head = stream_nt_head(c, n, sizeof(NT_V), sizeof(NT_T));
  const size_t vectors = (n - head) / NT_W;
  for (size_t j = 0; j < head; j++)
    c[j] = a[j] + b[j];
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
#pragma omp for schedule(static) nowait
    for (size_t v = 0; v < vectors; v++) {
      const size_t j = head + v * NT_W;
      NT_STREAM(c + j, NT_ADD(NT_LOADU(a + j), NT_LOADU(b + j)));
    }
    _mm_sfence();
  }
  for (size_t j = head + vectors * NT_W; j < n; j++)
    c[j] = a[j] + b[j];
  return n;
}

NT_TARGET static size_t NT_NAME(triad)(const stream_job_t *job) {
  NT_T *restrict a = job->a;
  const NT_T *restrict b = job->b;
  const NT_T *restrict c = job->c;
  const NT_T s = (NT_T)job->scalar;
  const size_t n = job->n;
  const size_t head = stream_nt_head(a, n, sizeof(NT_V), sizeof(NT_T));
  const size_t vectors = (n - head) / NT_W;
  for (size_t j = 0; j < head; j++)
    a[j] = b[j] + s * c[j];
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
    const NT_V vs = NT_SET1(s);
#pragma omp for schedule(static) nowait
    for (size_t v = 0; v < vectors; v++) {
      const size_t j = head + v * NT_W;
      NT_STREAM(a + j, NT_ADD(NT_LOADU(b + j), NT_MUL(vs, NT_LOADU(c + j))));
    }
    _mm_sfence();
  }
  for (size_t j = head + vectors * NT_W; j < n; j++)
    a[j] = b[j] + s * c[j];
  return n;
}

NT_TARGET static size_t NT_NAME(nstream)(const stream_job_t *job) {
  NT_T *restrict a = job->a;
  const NT_T *restrict b = job->b;
  const NT_T *restrict c = job->c;
  const NT_T s = (NT_T)job->scalar;
  const size_t n = job->n;
  const size_t head = stream_nt_head(a, n, sizeof(NT_V), sizeof(NT_T));
  const size_t vectors = (n - head) / NT_W;
  for (size_t j = 0; j < head; j++)
    a[j] += b[j] + s * c[j];
#pragma omp parallel num_threads(job->threads)
  {
    STREAM_NOTE_TEAM(job);
    const NT_V vs = NT_SET1(s);
#pragma omp for schedule(static) nowait
    for (size_t v = 0; v < vectors; v++) {
      const size_t j = head + v * NT_W;
      const NT_V bsc = NT_ADD(NT_LOADU(b + j), NT_MUL(vs, NT_LOADU(c + j)));
      NT_STREAM(a + j, NT_ADD(NT_LOADU(a + j), bsc));
    }
    _mm_sfence();
  }
  for (size_t j = head + vectors * NT_W; j < n; j++)
    a[j] += b[j] + s * c[j];
  return n;
}

static const stream_kernel_fn NT_NAME(table)[STREAM_N_KERNELS] = {
    [STREAM_COPY] = NT_NAME(copy), [STREAM_SCALE] = NT_NAME(scale),
    [STREAM_ADD] = NT_NAME(add),   [STREAM_TRIAD] = NT_NAME(triad),
    [STREAM_DOT] = NULL,           [STREAM_NSTREAM] = NT_NAME(nstream),
};

#undef NT_T
#undef NT_V
#undef NT_W
#undef NT_LOADU
#undef NT_STREAM
#undef NT_ADD
#undef NT_MUL
#undef NT_SET1
#undef NT_NAME
