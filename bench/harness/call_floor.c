/* What one iteration of the measured loop costs on this CPU, taken apart in one process: the
 * loop with no call, the loop calling the empty plugin's run through its descriptor, and the loop
 * calling the null plugin's run, each in the shape of the core's batch loop (measure.c), each the
 * best of many interleaved repetitions.
 *
 *   call_floor EMPTY.so NULL.so [ITERS] [REPEATS]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_host.h"

typedef int (*run_fn)(rigor_ctx_t *, void *, const void *, uint64_t);

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The core's batch loop: one call per iteration, stop at the first error. */
__attribute__((noinline)) static int calls(run_fn run, rigor_ctx_t *ctx, void *state,
                                           const void *point, uint64_t iters) {
  int rc;
  for (uint64_t i = 0; i < iters; i++)
    if ((rc = run(ctx, state, point, 1)) < 0) return rc;
  return 0;
}

/* The same loop without the call: its own increment, compare and branch. */
__attribute__((noinline)) static int no_calls(uint64_t iters) {
  for (uint64_t i = 0; i < iters; i++)
    __asm__ __volatile__("" ::: "memory");
  return 0;
}

static void *open_plugin(const char *so, const char *name, const rigor_plugin_t **d,
                         test_host_t *th, void **state, void **point) {
  void *handle;
  *d = test_plugin_open(so, name, &handle);
  *point = calloc(1, (*d)->params_size ? (*d)->params_size : 1);
  rigor_work_t work = {0};
  const void *pts[1] = {*point};
  rigor_points_t points = {1, pts};
  if ((*d)->init((rigor_ctx_t *)th, &th->host, *point, &points, state, &work) != 0) {
    fprintf(stderr, "%s: init failed\n", so);
    exit(1);
  }
  return handle;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s EMPTY.so NULL.so [ITERS] [REPEATS]\n", argv[0]);
    return 2;
  }
  const uint64_t iters = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000;
  const int repeats = argc > 4 ? atoi(argv[4]) : 200;
  test_host_t th;
  test_host_init(&th);
  const rigor_plugin_t *empty, *null;
  void *empty_state, *null_state, *empty_point, *null_point;
  open_plugin(argv[1], "empty", &empty, &th, &empty_state, &empty_point);
  open_plugin(argv[2], "null", &null, &th, &null_state, &null_point);
  double best[3] = {1e30, 1e30, 1e30};
  for (int r = 0; r < repeats; r++)
    for (int k = 0; k < 3; k++) {
      const uint64_t t0 = now_ns();
      if (k == 0) no_calls(iters);
      if (k == 1) calls(empty->run, (rigor_ctx_t *)&th, empty_state, empty_point, iters);
      if (k == 2) calls(null->run, (rigor_ctx_t *)&th, null_state, null_point, iters);
      const double ns = (double)(now_ns() - t0) / (double)iters;
      if (ns < best[k]) best[k] = ns;
    }
  printf("loop alone:                %.2f ns per iteration\n", best[0]);
  printf("call of empty run:         %.2f ns per iteration (the call itself: %.2f ns)\n", best[1],
         best[1] - best[0]);
  printf("call of null run:          %.2f ns per iteration (null's body: %.2f ns)\n", best[2],
         best[2] - best[1]);
  printf("best of %d repetitions of %llu iterations each\n", repeats, (unsigned long long)iters);
  null->fini((rigor_ctx_t *)&th, null_state);
  empty->fini((rigor_ctx_t *)&th, empty_state);
  free(null_point);
  free(empty_point);
  return 0;
}
