/* What each kernel promises: the arrays it moves and the flops it does per element, and the work
 * of one operation derived from the loop bound the kernel actually executed. */
#ifndef STREAM_CONTRACT_H
#define STREAM_CONTRACT_H

#include <stddef.h>

#include "rigor/plugin.h"

typedef enum {
  STREAM_COPY = 0, /* c = a */
  STREAM_SCALE,    /* b = s * c */
  STREAM_ADD,      /* c = a + b */
  STREAM_TRIAD,    /* a = b + s * c */
  STREAM_DOT,      /* sum += a * b */
  STREAM_NSTREAM,  /* a += b + s * c */
  STREAM_N_KERNELS
} stream_kernel_t;

typedef enum { STREAM_DOUBLE = 0, STREAM_FLOAT } stream_dtype_t;

typedef struct stream_kernel_info {
  const char *name;
  unsigned arrays_read;
  unsigned arrays_written;
  unsigned flops_per_element;
} stream_kernel_info_t;

extern const stream_kernel_info_t stream_kernel_info[STREAM_N_KERNELS];

size_t stream_dtype_size(stream_dtype_t dtype);

/* Work of one operation of `kernel` over `executed` elements (the loop bound that ran). */
void stream_work_fill(rigor_work_t *work, stream_kernel_t kernel, size_t executed,
                      stream_dtype_t dtype);

#endif
