/* Fault injection, compiled only into the test module stream_faults.so (STREAM_FAULT_INJECTION):
 * the bugs of the `j < 10` post-mortem, made on purpose so tests can prove validation sees them. */
#ifndef STREAM_FAULTS_H
#define STREAM_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream_kernels.h"

typedef enum {
  STREAM_FAULT_NONE = 0,
  STREAM_FAULT_CORRUPT, /* add 1 to the middle element of the kernel's output */
  STREAM_FAULT_NAN,     /* write NaN there */
  STREAM_FAULT_CUT,     /* run the loop to 10 instead of the array length */
  STREAM_FAULT_SKIP,    /* run nothing, yet log the kernel as executed */
} stream_fault_kind_t;

#define STREAM_FAULT_CUT_BOUND 10

typedef struct stream_fault {
  stream_fault_kind_t kind;
  bool kernels[STREAM_N_KERNELS];
} stream_fault_t;

extern const char *const stream_fault_names[];

/* Parses "scale,add,triad"; returns 0, or -1 with the reason in `why`. */
int stream_fault_parse(int32_t kind, const char *kernels, stream_fault_t *out, char *why,
                       size_t whylen);

/* `n` executions of `fn` with the fault applied; returns the loop bound the last one executed. */
size_t stream_fault_execute(const stream_fault_t *f, stream_kernel_t kernel, stream_kernel_fn fn,
                            const stream_job_t *job, uint64_t n, stream_dtype_t dtype);

#endif
