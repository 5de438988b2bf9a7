/* The scalar model of the arrays: every executed kernel is logged in order and replayed on one
 * element's worth of scalars, rounded to the element type after every operation as the kernels
 * round. Initial values are BabelStream's, which stay bounded for any number of cycles. */
#ifndef STREAM_REPLAY_H
#define STREAM_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream_contract.h"

#define STREAM_INIT_A 0.1
#define STREAM_INIT_B 0.2
#define STREAM_INIT_C 0.0
#define STREAM_SCALAR 0.4

typedef struct stream_replay {
  stream_dtype_t dtype;
  size_t elements;
  double a, b, c; /* what every element of each array should hold */
  double dot;     /* what the last dot should have returned */
  int last;       /* the last kernel replayed, -1 before any */
  int pending;    /* kernel of the not yet replayed run, -1 for none */
  uint64_t pending_count;
  uint64_t executed[STREAM_N_KERNELS];
} stream_replay_t;

void stream_replay_init(stream_replay_t *r, stream_dtype_t dtype, size_t elements);

/* Records `count` executions of `kernel`. Cheap while the kernel repeats (inside a window); a
 * change of kernel replays the pending run first. */
void stream_replay_log(stream_replay_t *r, stream_kernel_t kernel, uint64_t count);

/* Replays everything logged so far; call outside the measured window. */
void stream_replay_settle(stream_replay_t *r);

/* A sweep can drift its values geometrically (copy..triad then nstream doubles them each cycle;
 * triad alone shrinks them by 0.96), toward overflow or subnormals. Returns the power of two that
 * brings the largest expected value back near 1, or 1.0 while it stays within 2^-20 .. 2^20.
 * Scaling by a power of two is exact, so a damaged element stays exactly as wrong. */
double stream_replay_rescale_factor(const stream_replay_t *r);
void stream_replay_rescale(stream_replay_t *r, double factor);

/* The scalar the kernels use, as the element type holds it. */
double stream_replay_scalar(stream_dtype_t dtype);

#endif
