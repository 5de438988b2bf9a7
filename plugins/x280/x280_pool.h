/* A fork-join pool of pinned threads: x280_pool_run(fn) runs fn(thread, arg) on threads 0..n-1,
 * thread 0 being the caller, and returns when all have finished. Waiting on both sides spins for a
 * while and then blocks on a futex, so back-to-back calls cost no system call while idle workers
 * leave their cores to others. */
#ifndef X280_POOL_H
#define X280_POOL_H

#include <stdint.h>

#define X280_POOL_MAX_THREADS 255u

typedef struct x280_pool x280_pool_t;
typedef void (*x280_pool_fn)(unsigned thread, void *arg);

/* Starts `threads - 1` workers; worker k is pinned to cpus[k], the caller to cpus[0] (its former
 * affinity comes back at destroy). Returns 0 or a negative errno-style code. */
int x280_pool_create(x280_pool_t **out, const int *cpus, unsigned threads, uint64_t spin_ns);
/* Runs fn on threads 0..active-1 (active <= threads) and joins them. */
void x280_pool_run(x280_pool_t *pool, unsigned active, x280_pool_fn fn, void *arg);
/* How many calls worker `thread` has served since creation. */
uint64_t x280_pool_served(const x280_pool_t *pool, unsigned thread);
void x280_pool_destroy(x280_pool_t *pool);

#endif
