#include "stream_replay.h"

#include <math.h>

static double rounded(stream_dtype_t dtype, double x) {
  return dtype == STREAM_FLOAT ? (double)(float)x : x;
}

double stream_replay_scalar(stream_dtype_t dtype) {
  return rounded(dtype, STREAM_SCALAR);
}

void stream_replay_init(stream_replay_t *r, stream_dtype_t dtype, size_t elements) {
  *r = (stream_replay_t){
      .dtype = dtype,
      .elements = elements,
      .a = rounded(dtype, STREAM_INIT_A),
      .b = rounded(dtype, STREAM_INIT_B),
      .c = rounded(dtype, STREAM_INIT_C),
      .last = -1,
      .pending = -1,
  };
}

static void replay_once(stream_replay_t *r, stream_kernel_t kernel) {
  const stream_dtype_t t = r->dtype;
  const double s = stream_replay_scalar(t);
  switch (kernel) {
  case STREAM_COPY:
    r->c = r->a;
    break;
  case STREAM_SCALE:
    r->b = rounded(t, s * r->c);
    break;
  case STREAM_ADD:
    r->c = rounded(t, r->a + r->b);
    break;
  case STREAM_TRIAD:
    r->a = rounded(t, r->b + rounded(t, s * r->c));
    break;
  case STREAM_DOT:
    r->dot = (double)r->elements * (r->a * r->b);
    break;
  case STREAM_NSTREAM:
    r->a = rounded(t, r->a + rounded(t, r->b + rounded(t, s * r->c)));
    break;
  case STREAM_N_KERNELS:
    break;
  }
}

void stream_replay_settle(stream_replay_t *r) {
  if (r->pending < 0) return;
  const stream_kernel_t kernel = (stream_kernel_t)r->pending;
  for (uint64_t i = 0; i < r->pending_count; i++)
    replay_once(r, kernel);
  r->executed[kernel] += r->pending_count;
  r->last = r->pending;
  r->pending = -1;
  r->pending_count = 0;
}

void stream_replay_log(stream_replay_t *r, stream_kernel_t kernel, uint64_t count) {
  if (r->pending != (int)kernel) stream_replay_settle(r);
  r->pending = (int)kernel;
  r->pending_count += count;
}

double stream_replay_rescale_factor(const stream_replay_t *r) {
  const double largest = fmax(fabs(r->a), fmax(fabs(r->b), fabs(r->c)));
  if (!isfinite(largest) || largest == 0.0) return 1.0;
  int exponent;
  frexp(largest, &exponent);
  return exponent > 20 || exponent < -20 ? ldexp(1.0, -exponent) : 1.0;
}

void stream_replay_rescale(stream_replay_t *r, double factor) {
  r->a *= factor;
  r->b *= factor;
  r->c *= factor;
}
