/* Where thread k of the pool or of OpenMP's team runs among the run's CPUs, as OpenMP's
 * proc_bind places it. */
#ifndef X280_BIND_H
#define X280_BIND_H

typedef enum { X280_BIND_SPREAD = 0, X280_BIND_CLOSE } x280_bind_t;

extern const char *const x280_bind_names[];

/* The index into `places` CPUs of thread `thread` of `threads`: spread at the start of the
 * thread's share of the places (k * places / threads), close on place k; with more threads than
 * places both fill the places in order, the same number of threads on each. */
unsigned x280_bind_place(x280_bind_t policy, unsigned thread, unsigned threads, unsigned places);

/* out[k] = cpus[x280_bind_place(policy, k, threads, n_cpus)] for k < threads. */
void x280_bind_map(x280_bind_t policy, const int *cpus, unsigned n_cpus, unsigned threads,
                   int *out);

#endif
