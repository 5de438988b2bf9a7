/* The x280 plugin's performance targets, each measured beside its baseline in the same process
 * with the rounds interleaved (A B B A ...), best and median of the rounds reported:
 *   fork-join: the plugin's pool against OpenMP's empty parallel region, per call;
 *   map on 2 cores against the stream plugin's copy on 2 threads, both on arrays larger than
 *   the LLC, both loaded with dlopen as rigor loads them;
 *   map_heavy on 2 cores against 1.
 * bench_x280 [--rounds N] [--words W] [--calls C] */
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream_params.h"
#include "test_host.h"
#include "x280_params.h"

#define PLUGIN_SO  RIGOR_PLUGIN_DIR "/x280.so"
#define STREAM_SO  RIGOR_PLUGIN_DIR "/stream.so"
#define MAX_ROUNDS 64

typedef struct bench {
  const rigor_plugin_t *d;
  test_host_t th;
  void *state;
  rigor_work_t work;
} bench_t;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The names of an enum param's choices, read from the plugin's own schema. */
static const char *choice(const rigor_plugin_t *d, const char *param, int32_t index) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (strcmp(d->params[i].name, param) == 0) return d->params[i].choices[index];
  return "?";
}

static x280_params_t point(x280_pattern_t pattern, uint64_t words, uint64_t cores) {
  return (x280_params_t){.pattern = pattern,
                         .words = words,
                         .alias_stride = 128 * 1024,
                         .cores = cores,
                         .rounds = 16,
                         .seed = 1,
                         .spin_us = 100,
                         .cold = true,
                         .prefetch = true};
}

static void die(const char *what, int rc, const bench_t *b) {
  fprintf(stderr, "bench_x280: %s failed (%d): %s\n", what, rc, b->th.first_error);
  exit(1);
}

/* The CPUs this process may use, taken before any plugin pins the calling thread: every host
 * lends them as rigor lends a run its CPU set. */
static int run_cpus[8];
static int n_run_cpus;

static void open_points(bench_t *b, const void *const *ptrs, uint32_t n) {
  rigor_points_t points = {.count = n, .points = (const void **)ptrs};
  test_host_init(&b->th);
  memcpy(b->th.cpus, run_cpus, sizeof run_cpus);
  b->th.n_cpus = n_run_cpus;
  int rc = b->d->init((rigor_ctx_t *)&b->th, &b->th.host, ptrs[0], &points, &b->state, &b->work);
  if (rc != 0) die("init", rc, b);
}

static void open_bench(bench_t *b, x280_params_t *pts, uint32_t n) {
  const void *ptrs[8];
  for (uint32_t i = 0; i < n; i++)
    ptrs[i] = &pts[i];
  open_points(b, ptrs, n);
}

/* One sample as the core takes it: prime, `ops` operations timed, validate. Seconds per op. */
static double sample(bench_t *b, const void *p, uint64_t ops) {
  rigor_ctx_t *ctx = (rigor_ctx_t *)&b->th;
  int rc = b->d->prime(ctx, b->state, p);
  if (rc != 0) die("prime", rc, b);
  uint64_t t0 = now_ns();
  rc = b->d->run(ctx, b->state, p, ops);
  uint64_t t1 = now_ns();
  if (rc != 0) die("run", rc, b);
  rigor_check_t check;
  memset(&check, 0, sizeof check);
  rc = b->d->validate(ctx, b->state, p, &check);
  if (rc != 0 || check.wrong != 0) {
    fprintf(stderr, "bench_x280: %s not exact: %s\n", b->d->name, check.detail);
    exit(1);
  }
  return (double)(t1 - t0) * 1e-9 / (double)ops;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct stat2 {
  double best;
  double median;
} stat2_t;

/* Best (smallest) and median of n values; `v` keeps its order. For ratios, "best" is the
 * smallest too. */
static stat2_t summarize(const double *v, int n) {
  double s[MAX_ROUNDS];
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, by_value);
  return (stat2_t){.best = s[0], .median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2};
}

static uint64_t arg_u64(int argc, char **argv, const char *name, uint64_t def) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], name) == 0) return strtoull(argv[i + 1], NULL, 0);
  return def;
}

int main(int argc, char **argv) {
  int rounds = (int)arg_u64(argc, argv, "--rounds", 7);
  uint64_t words = arg_u64(argc, argv, "--words", 16u << 20); /* 64 MiB per array */
  uint64_t calls = arg_u64(argc, argv, "--calls", 20000);
  if (rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "bench_x280: --rounds must be 1..%d\n", MAX_ROUNDS);
    return 2;
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE && n_run_cpus < 8; c++)
      if (CPU_ISSET(c, &set)) run_cpus[n_run_cpus++] = c;
  void *handle;
  bench_t b = {0};
  b.d = test_plugin_open(PLUGIN_SO, "x280", &handle);

  /* Fork-join, 2 cores: pool against OpenMP, per empty call. */
  x280_params_t fj[] = {point(X280_FORK_JOIN_POOL, 1, 2), point(X280_FORK_JOIN_OMP, 1, 2)};
  open_bench(&b, fj, 2);
  double pool_s[MAX_ROUNDS], omp_s[MAX_ROUNDS];
  for (int r = 0; r < rounds; r++) {
    int pool_first = r % 2 == 0;
    double a = sample(&b, &fj[pool_first ? 0 : 1], calls);
    double c = sample(&b, &fj[pool_first ? 1 : 0], calls);
    pool_s[r] = pool_first ? a : c;
    omp_s[r] = pool_first ? c : a;
  }
  b.d->fini((rigor_ctx_t *)&b.th, b.state);
  stat2_t pool = summarize(pool_s, rounds), omp = summarize(omp_s, rounds);
  printf("fork_join 2 cores, %llu calls x %d rounds\n", (unsigned long long)calls, rounds);
  printf("  pool  best %.3f us  median %.3f us\n", pool.best * 1e6, pool.median * 1e6);
  printf("  omp   best %.3f us  median %.3f us\n", omp.best * 1e6, omp.median * 1e6);
  printf("  pool/omp  best %.2f  median %.2f   (target: pool <= 1 us and <= omp)\n",
         pool.best / omp.best, pool.median / omp.median);

  /* map on 2 cores against the stream plugin's copy on 2 threads, the same 2 * 64 MiB of arrays
   * beyond the LLC: the scalar and the vector loop in the X280 measurements' chunks (with and
   * without the next-chunk prefetch) and in quarters. */
  x280_params_t mp[] = {point(X280_MAP, words, 2),        point(X280_MAP, words, 2),
                        point(X280_MAP, words, 2),        point(X280_MAP_VECTOR, words, 2),
                        point(X280_MAP_VECTOR, words, 2), point(X280_MAP_VECTOR, words, 2)};
  mp[1].prefetch = mp[4].prefetch = false;
  mp[2].layout = mp[5].layout = X280_QUARTERS;
  enum { N_MAPS = sizeof mp / sizeof mp[0] };
  open_bench(&b, mp, N_MAPS);
  void *stream_handle;
  bench_t sb = {0};
  sb.d = test_plugin_open(STREAM_SO, "stream", &stream_handle);
  stream_params_t copy_point = {.kernel = 0 /* copy */,
                                .elements = words * sizeof(uint32_t) / sizeof(double),
                                .dtype = 0 /* double */,
                                .threads = 2,
                                /* plain stores, as the maps write */
                                .copy_stores = 1 /* plain */};
  const void *copy_ptrs[] = {&copy_point};
  open_points(&sb, copy_ptrs, 1);
  double map_s[N_MAPS][MAX_ROUNDS], copy_s[MAX_ROUNDS];
  uint64_t map_bytes = 0;
  for (int r = 0; r < rounds; r++) {
    int maps_first = r % 2 == 0;
    if (!maps_first) copy_s[r] = sample(&sb, &copy_point, 1);
    for (int k = 0; k < N_MAPS; k++) {
      int m = maps_first ? k : N_MAPS - 1 - k;
      map_s[m][r] = sample(&b, &mp[m], 1);
      map_bytes = b.work.bytes;
    }
    if (maps_first) copy_s[r] = sample(&sb, &copy_point, 1);
  }
  double copy_bytes = (double)sb.work.bytes;
  sb.d->fini((rigor_ctx_t *)&sb.th, sb.state);
  b.d->fini((rigor_ctx_t *)&b.th, b.state);
  stat2_t copy = summarize(copy_s, rounds);
  printf("map 2 cores vs the stream plugin's copy on 2 threads, %llu words (%llu MiB per array), "
         "GB/s\n",
         (unsigned long long)words, (unsigned long long)(words * 4 >> 20));
  printf("  %-30s best %6.2f  median %6.2f\n", "stream copy", copy_bytes / copy.best * 1e-9,
         copy_bytes / copy.median * 1e-9);
  for (int m = 0; m < N_MAPS; m++) {
    stat2_t map = summarize(map_s[m], rounds);
    char label[64];
    snprintf(label, sizeof label, "%s/%s%s", choice(b.d, "pattern", mp[m].pattern),
             choice(b.d, "layout", mp[m].layout), mp[m].prefetch ? "" : ", no prefetch");
    /* Each round's map against the copy beside it: slow drift of the machine cancels. */
    double paired[MAX_ROUNDS];
    for (int r = 0; r < rounds; r++)
      paired[r] = ((double)map_bytes / map_s[m][r]) / (copy_bytes / copy_s[r]);
    stat2_t ratio = summarize(paired, rounds);
    double highest = paired[0];
    for (int r = 1; r < rounds; r++)
      highest = paired[r] > highest ? paired[r] : highest;
    printf("  %-30s best %6.2f  median %6.2f   of copy, per round: median %.2f  [%.2f .. %.2f]  "
           "(target >= 0.90)\n",
           label, (double)map_bytes / map.best * 1e-9, (double)map_bytes / map.median * 1e-9,
           ratio.median, ratio.best, highest);
  }

  /* map_heavy: 1 core against 2, the X280 measurements' 262,144 words. */
  x280_params_t hv[] = {point(X280_MAP_HEAVY, 262144, 1), point(X280_MAP_HEAVY, 262144, 2)};
  open_bench(&b, hv, 2);
  double one_s[MAX_ROUNDS], two_s[MAX_ROUNDS];
  for (int r = 0; r < rounds; r++) {
    int one_first = r % 2 == 0;
    double a = sample(&b, &hv[one_first ? 0 : 1], 1);
    double c = sample(&b, &hv[one_first ? 1 : 0], 1);
    one_s[r] = one_first ? a : c;
    two_s[r] = one_first ? c : a;
  }
  b.d->fini((rigor_ctx_t *)&b.th, b.state);
  stat2_t one = summarize(one_s, rounds), two = summarize(two_s, rounds);
  printf("map_heavy (16 rounds), 262144 words\n");
  printf("  1 core   best %.3f ms  median %.3f ms\n", one.best * 1e3, one.median * 1e3);
  printf("  2 cores  best %.3f ms  median %.3f ms\n", two.best * 1e3, two.median * 1e3);
  printf("  speedup  best %.2f  median %.2f   (target >= 1.80)\n", one.best / two.best,
         one.median / two.median);
  dlclose(stream_handle);
  dlclose(handle);
  return 0;
}
