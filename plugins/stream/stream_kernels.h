/* STREAM and BabelStream kernels: one hot loop each, OpenMP static schedule on the loop. */
#ifndef STREAM_KERNELS_H
#define STREAM_KERNELS_H

#include <omp.h>
#include <stddef.h>

#include "stream_contract.h"

/* One kernel invocation: the arrays, the loop bound and the team size. */
typedef struct stream_job {
  void *a;
  void *b;
  void *c;
  size_t n;      /* loop bound: the kernel touches elements [0, n) */
  double scalar; /* converted to the element type by the kernel */
  int threads;   /* num_threads clause of every parallel loop */
  double *dot;   /* where dot stores its sum */
  int *team;     /* the team size of the last kernel's parallel region, read inside it */
} stream_job_t;

/* Inside a kernel's parallel region: records the team that really ran it, so a run can show the
 * thread count of every window rather than the one it asked for. */
#define STREAM_NOTE_TEAM(job)                                                                      \
  do {                                                                                             \
    if (omp_get_thread_num() == 0) *(job)->team = omp_get_num_threads();                           \
  } while (0)

/* Thread `thread` of `threads`: its share [first, first + count) of n elements as libgomp's
 * schedule(static) splits them (n / threads each, the first n % threads one more), so a kernel
 * that splits by hand streams the pages its thread placed at first touch. */
static inline void stream_static_chunk(size_t n, size_t thread, size_t threads, size_t *first,
                                       size_t *count) {
  const size_t share = n / threads, extra = n % threads;
  *count = share + (thread < extra ? 1 : 0);
  *first = thread * share + (thread < extra ? thread : extra);
}

/* Runs one kernel and returns the loop bound it executed, the only source of its work. */
typedef size_t (*stream_kernel_fn)(const stream_job_t *job);

/* Plain stores, indexed by stream_kernel_t. */
const stream_kernel_fn *stream_kernels_plain(stream_dtype_t dtype);

/* The vector instruction set the plain loops run with on this CPU: "avx2" or "sse2" on x86-64
 * with GCC, else "baseline" (the build's target). */
const char *stream_kernels_plain_isa(void);

/* The copy as stream.c's compiles: the C library's memcpy on each thread's static chunk. */
stream_kernel_fn stream_kernel_copy_memcpy(stream_dtype_t dtype);

/* First touch: a = 0.1, b = 0.2, c = 0.0 with the kernels' own schedule. */
void stream_kernels_first_touch(stream_dtype_t dtype, const stream_job_t *job);

/* Multiplies every element of a, b and c by `factor`, a power of two, so exactly. */
void stream_kernels_rescale(stream_dtype_t dtype, const stream_job_t *job, double factor);

/* Non-temporal stores, indexed by stream_kernel_t; NULL entries (dot, which stores nothing) mean
 * the plain loop. Returns NULL and writes the reason to `why` when this build or this CPU has no
 * streaming stores. `isa` names the instruction set chosen. */
const stream_kernel_fn *stream_kernels_nt(stream_dtype_t dtype, const char **isa, char *why,
                                          size_t whylen);

#endif
