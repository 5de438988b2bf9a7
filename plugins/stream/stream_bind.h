/* One OpenMP thread per CPU of the run's set: where thread k of a team goes, and pinning the
 * team there. The team is pinned by the plugin itself because the OpenMP runtime read
 * OMP_PLACES when the parent process loaded the plugin, before the run's CPU set existed. */
#ifndef STREAM_BIND_H
#define STREAM_BIND_H

#include <stddef.h>

typedef enum { STREAM_BIND_SPREAD = 0, STREAM_BIND_CLOSE, STREAM_BIND_NONE } stream_bind_t;

/* The index into `places` CPUs of thread `thread` of a team of `threads`, as OpenMP's
 * proc_bind places it: spread at the start of the thread's share of the places (k * places /
 * threads), close on place k; with more threads than places both fill the places in order, the
 * same number of threads on each. */
int stream_bind_place(stream_bind_t policy, int thread, int threads, int places);

/* Pins thread k of a team of `threads` (k = omp_get_thread_num()) to
 * cpus[stream_bind_place(policy, k, threads, n_cpus)], nothing for STREAM_BIND_NONE, then reads
 * every thread's binding back: bound[k] is the one CPU thread k may run on, -1 when its mask
 * allows more than one. Returns 0, or a negative errno when a thread could not be pinned. */
int stream_bind_team(stream_bind_t policy, const int *cpus, int n_cpus, int threads, int *bound);

/* Gives every thread of a team of `threads` the affinity `mask` (a cpu_set_t) back. */
void stream_bind_release(int threads, const void *mask, size_t mask_size);

#endif
