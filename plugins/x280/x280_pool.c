#include "x280_pool.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define X280_CPU_RELAX() __builtin_ia32_pause()
#elif defined(__riscv)
#define X280_CPU_RELAX() __asm__ __volatile__("pause" ::: "memory")
#elif defined(__aarch64__)
#define X280_CPU_RELAX() __asm__ __volatile__("yield" ::: "memory")
#else
#define X280_CPU_RELAX() ((void)0)
#endif

#define X280_LINE 64

typedef struct x280_worker {
  alignas(X280_LINE) x280_pool_t *pool;
  pthread_t thread;
  unsigned index;
  int cpu;
  _Atomic uint64_t served;
} x280_worker_t;

/* The generation word carries the call's sequence number above X280_ACTIVE_BITS and its active
 * thread count below, so a worker that sits a call out never reads fields the caller may already
 * be rewriting for the next call. */
#define X280_ACTIVE_BITS 8
#define X280_ACTIVE_MASK ((1u << X280_ACTIVE_BITS) - 1)
_Static_assert(X280_POOL_MAX_THREADS <= X280_ACTIVE_MASK, "active count must fit its bits");

struct x280_pool {
  /* Written by the caller per call, read by every worker. */
  alignas(X280_LINE) _Atomic uint32_t generation;
  x280_pool_fn fn;
  void *arg;
  bool quit;
  /* Counters the workers write, each on its own line. */
  alignas(X280_LINE) _Atomic uint32_t done;
  alignas(X280_LINE) _Atomic uint32_t sleeping_workers;
  alignas(X280_LINE) _Atomic uint32_t caller_sleeping;
  alignas(X280_LINE) uint64_t spin_ns;
  unsigned threads;
  cpu_set_t caller_affinity;
  bool caller_pinned;
  x280_worker_t *workers; /* workers[k] serves thread k (k >= 1) */
};

static void futex_wait(_Atomic uint32_t *word, uint32_t expected) {
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake_all(_Atomic uint32_t *word) {
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spins until *word != value or spin_ns have passed; returns the last value read. The clock is
 * read only every 256 polls so spinning stays cheap. */
static uint32_t spin_while_equal(_Atomic uint32_t *word, uint32_t value, uint64_t spin_ns) {
  uint64_t start = 0;
  for (uint32_t polls = 0;; polls++) {
    uint32_t now = atomic_load_explicit(word, memory_order_acquire);
    if (now != value) return now;
    if ((polls & 255u) == 0) {
      uint64_t t = monotonic_ns();
      if (start == 0)
        start = t;
      else if (t - start >= spin_ns)
        return now;
    }
    X280_CPU_RELAX();
  }
}

static uint32_t wait_generation(x280_pool_t *pool, uint32_t seen) {
  uint32_t gen = spin_while_equal(&pool->generation, seen, pool->spin_ns);
  while (gen == seen) {
    /* The counter is seq_cst on both sides: either the caller sees a sleeper and wakes, or this
     * worker sees the new generation before sleeping. */
    atomic_fetch_add(&pool->sleeping_workers, 1);
    gen = atomic_load(&pool->generation);
    if (gen == seen) futex_wait(&pool->generation, seen);
    atomic_fetch_sub(&pool->sleeping_workers, 1);
    gen = atomic_load(&pool->generation);
  }
  return gen;
}

static void *worker_main(void *arg) {
  x280_worker_t *w = arg;
  x280_pool_t *pool = w->pool;
  uint32_t seen = 0;
  for (;;) {
    seen = wait_generation(pool, seen);
    if (pool->quit) return NULL;
    if (w->index >= (seen & X280_ACTIVE_MASK)) continue;
    pool->fn(w->index, pool->arg);
    atomic_fetch_add_explicit(&w->served, 1, memory_order_relaxed);
    atomic_fetch_add(&pool->done, 1);
    if (atomic_load(&pool->caller_sleeping)) futex_wake_all(&pool->done);
  }
}

static void join_workers(x280_pool_t *pool, uint32_t expected) {
  uint32_t done = atomic_load_explicit(&pool->done, memory_order_acquire);
  uint64_t start = monotonic_ns();
  while (done != expected && monotonic_ns() - start < pool->spin_ns) {
    for (int i = 0; i < 64 && done != expected; i++) {
      X280_CPU_RELAX();
      done = atomic_load_explicit(&pool->done, memory_order_acquire);
    }
  }
  if (done == expected) return;
  atomic_store(&pool->caller_sleeping, 1);
  while ((done = atomic_load(&pool->done)) != expected)
    futex_wait(&pool->done, done);
  atomic_store(&pool->caller_sleeping, 0);
}

static void publish(x280_pool_t *pool, unsigned active, x280_pool_fn fn, void *arg) {
  pool->fn = fn;
  pool->arg = arg;
  atomic_store_explicit(&pool->done, 0, memory_order_relaxed);
  uint32_t sequence =
      (atomic_load_explicit(&pool->generation, memory_order_relaxed) >> X280_ACTIVE_BITS) + 1;
  atomic_store(&pool->generation, sequence << X280_ACTIVE_BITS | active);
  if (atomic_load(&pool->sleeping_workers)) futex_wake_all(&pool->generation);
}

void x280_pool_run(x280_pool_t *pool, unsigned active, x280_pool_fn fn, void *arg) {
  if (active > pool->threads) active = pool->threads;
  if (active <= 1) {
    fn(0, arg);
    return;
  }
  publish(pool, active, fn, arg);
  fn(0, arg);
  join_workers(pool, active - 1);
}

uint64_t x280_pool_served(const x280_pool_t *pool, unsigned thread) {
  if (thread == 0 || thread >= pool->threads) return 0;
  return atomic_load_explicit(&pool->workers[thread].served, memory_order_relaxed);
}

static int pin_thread(pthread_t thread, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return -pthread_setaffinity_np(thread, sizeof set, &set);
}

static void stop_workers(x280_pool_t *pool, unsigned started) {
  pool->quit = true;
  publish(pool, 0, NULL, NULL);
  for (unsigned k = 1; k < started; k++)
    pthread_join(pool->workers[k].thread, NULL);
}

static void release(x280_pool_t *pool) {
  if (pool->caller_pinned)
    pthread_setaffinity_np(pthread_self(), sizeof pool->caller_affinity, &pool->caller_affinity);
  free(pool->workers);
  free(pool);
}

static size_t line_multiple(size_t bytes) {
  return (bytes + X280_LINE - 1) / X280_LINE * X280_LINE;
}

int x280_pool_create(x280_pool_t **out, const int *cpus, unsigned threads, uint64_t spin_ns) {
  if (!out || !cpus || threads == 0 || threads > X280_POOL_MAX_THREADS) return -EINVAL;
  x280_pool_t *pool = aligned_alloc(X280_LINE, line_multiple(sizeof *pool));
  if (!pool) return -ENOMEM;
  *pool = (x280_pool_t){.spin_ns = spin_ns, .threads = threads};
  pool->workers = aligned_alloc(X280_LINE, line_multiple(sizeof(x280_worker_t) * threads));
  if (!pool->workers) {
    free(pool);
    return -ENOMEM;
  }
  int rc =
      -pthread_getaffinity_np(pthread_self(), sizeof pool->caller_affinity, &pool->caller_affinity);
  if (rc == 0) rc = pin_thread(pthread_self(), cpus[0]);
  pool->caller_pinned = rc == 0;
  unsigned started = 1;
  while (rc == 0 && started < threads) {
    x280_worker_t *w = &pool->workers[started];
    *w = (x280_worker_t){.pool = pool, .index = started, .cpu = cpus[started]};
    rc = -pthread_create(&w->thread, NULL, worker_main, w);
    if (rc != 0) break;
    started++;
    rc = pin_thread(w->thread, w->cpu);
  }
  if (rc != 0) {
    stop_workers(pool, started);
    release(pool);
    return rc;
  }
  *out = pool;
  return 0;
}

void x280_pool_destroy(x280_pool_t *pool) {
  if (!pool) return;
  stop_workers(pool, pool->threads);
  release(pool);
}
