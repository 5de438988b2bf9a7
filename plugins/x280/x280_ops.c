#include "x280_ops.h"

#include <string.h>

#include "x280_forkjoin_omp.h"
#include "x280_kernels.h"
#include "x280_vmap.h"

/* Core 0 asks the host every this many chunks (256 KiB of words), and every this many counter
 * adds; the other cores only read the shared stop word. */
#define X280_POLL_CHUNKS 64u
#define X280_POLL_ADDS   (1u << 16)

int x280_poll_host(x280_state_t *s) {
  if (s->host->should_stop(s->ctx)) return RIGOR_ECANCELED;
  if (s->point.deadline > 0) {
    double elapsed = (double)(s->host->now_ns(s->ctx) - s->start_ns) * 1e-9;
    if (elapsed > s->point.deadline) return RIGOR_ETIMEDOUT;
  }
  return 0;
}

static bool stopping(x280_state_t *s, unsigned thread, uint64_t step, uint64_t period) {
  if (thread == 0 && step % period == period - 1) {
    int rc = x280_poll_host(s);
    if (rc != 0) atomic_store_explicit(&s->stop, rc, memory_order_relaxed);
  }
  return atomic_load_explicit(&s->stop, memory_order_relaxed) != 0;
}

static const x280_cluster_mem_t *home(const x280_state_t *s, unsigned thread) {
  return &s->clusters[x280_plan_cluster_of(&s->plan, thread)];
}

/* The chunk after `ch` in this walk, for the kernels to prefetch; none at the walk's end or
 * where the point turns prefetching off. */
static x280_next_t next_chunk(const x280_state_t *s, const x280_walk_t *walk, size_t ch,
                              const uint32_t *in, uint32_t *out) {
  size_t after = ch + walk->step;
  if (!s->point.prefetch || after >= walk->end) return (x280_next_t){0};
  size_t w0, w1;
  x280_plan_chunk_words(&s->plan, after, &w0, &w1);
  return (x280_next_t){.in = in + w0, .out = out ? out + w0 : NULL, .n = w1 - w0};
}

static void map_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  const x280_plan_t *plan = &s->plan;
  const x280_cluster_mem_t *mem = home(s, thread);
  const uint32_t *in = mem->in;
  uint32_t *out = mem->out;
  uint64_t rounds = s->point.rounds;
  /* A heavy chunk may take long: ask the host before each one. */
  uint64_t period = plan->pattern == X280_MAP_HEAVY ? 1 : X280_POLL_CHUNKS;
  x280_walk_t walk = x280_plan_walk(plan, thread);
  uint64_t step = 0;
  for (size_t ch = walk.first; ch < walk.end; ch += walk.step, step++) {
    if (stopping(s, thread, step, period)) return;
    size_t w0, w1;
    x280_plan_chunk_words(plan, ch, &w0, &w1);
    if (plan->pattern == X280_MAP_VECTOR)
      x280_vmap_range(out + w0, in + w0, w1 - w0, next_chunk(s, &walk, ch, in, out));
    else if (plan->pattern == X280_MAP_HEAVY)
      x280_map_heavy_range(out + w0, in + w0, w1 - w0, rounds);
    else
      x280_map_range(out + w0, in + w0, w1 - w0, next_chunk(s, &walk, ch, in, out));
  }
}

static void sum_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  const x280_plan_t *plan = &s->plan;
  const uint32_t *in = home(s, thread)->in;
  x280_walk_t walk = x280_plan_walk(plan, thread);
  uint64_t sum = 0, step = 0;
  for (size_t ch = walk.first; ch < walk.end; ch += walk.step, step++) {
    if (stopping(s, thread, step, X280_POLL_CHUNKS)) return;
    size_t w0, w1;
    x280_plan_chunk_words(plan, ch, &w0, &w1);
    sum += x280_sum_range(in + w0, w1 - w0, next_chunk(s, &walk, ch, in, NULL));
  }
  s->slots[thread].value = sum;
}

static void chunk_sums_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  const x280_plan_t *plan = &s->plan;
  const x280_cluster_mem_t *mem = home(s, thread);
  const uint32_t *in = mem->in;
  uint32_t *sums = mem->sums;
  x280_walk_t walk = x280_plan_walk(plan, thread);
  uint64_t step = 0;
  for (size_t ch = walk.first; ch < walk.end; ch += walk.step, step++) {
    if (stopping(s, thread, step, X280_POLL_CHUNKS)) return;
    size_t w0, w1;
    x280_plan_chunk_words(plan, ch, &w0, &w1);
    sums[ch] = x280_sum32_range(in + w0, w1 - w0, next_chunk(s, &walk, ch, in, NULL));
  }
}

static void chunk_scans_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  const x280_plan_t *plan = &s->plan;
  const x280_cluster_mem_t *mem = home(s, thread);
  const uint32_t *in = mem->in;
  const uint32_t *bases = mem->sums;
  uint32_t *out = mem->out;
  x280_walk_t walk = x280_plan_walk(plan, thread);
  uint64_t step = 0;
  for (size_t ch = walk.first; ch < walk.end; ch += walk.step, step++) {
    if (stopping(s, thread, step, X280_POLL_CHUNKS)) return;
    size_t w0, w1;
    x280_plan_chunk_words(plan, ch, &w0, &w1);
    x280_scan_range(out + w0, in + w0, w1 - w0, bases[ch], next_chunk(s, &walk, ch, in, out));
  }
}

/* The first core of every other cluster pushes that cluster's block of output to the lead's. */
static void push_outputs_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  const x280_plan_t *plan = &s->plan;
  unsigned cluster = x280_plan_cluster_of(plan, thread);
  if (cluster == 0 || thread != cluster * plan->cores_per_cluster) return;
  size_t w0, w1;
  x280_plan_block_words(plan, cluster, &w0, &w1);
  memcpy(s->clusters[0].out + w0, s->clusters[cluster].out + w0, (w1 - w0) * sizeof(uint32_t));
}

/* The lead pushes each other cluster's block of input into that cluster's copy. */
static void push_inputs(x280_state_t *s) {
  for (unsigned c = 1; c < s->plan.clusters; c++) {
    size_t w0, w1;
    x280_plan_block_words(&s->plan, c, &w0, &w1);
    memcpy(s->clusters[c].in + w0, s->clusters[0].in + w0, (w1 - w0) * sizeof(uint32_t));
  }
}

/* Between the passes: the lead gathers every block's chunk sums, turns them into exclusive bases
 * (one add per chunk) and pushes each block's bases back. */
static void chunk_bases(x280_state_t *s) {
  const x280_plan_t *plan = &s->plan;
  uint32_t *sums = s->clusters[0].sums;
  for (unsigned c = 1; c < plan->clusters; c++) {
    size_t c0, c1;
    x280_plan_block(plan, c, &c0, &c1);
    memcpy(sums + c0, s->clusters[c].sums + c0, (c1 - c0) * sizeof *sums);
  }
  uint32_t base = 0;
  for (size_t ch = 0; ch < plan->chunks; ch++) {
    uint32_t chunk_sum = sums[ch];
    sums[ch] = base;
    base += chunk_sum;
  }
  for (unsigned c = 1; c < plan->clusters; c++) {
    size_t c0, c1;
    x280_plan_block(plan, c, &c0, &c1);
    memcpy(s->clusters[c].sums + c0, sums + c0, (c1 - c0) * sizeof *sums);
  }
}

static void count_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  volatile uint64_t *counter =
      s->plan.pattern == X280_FALSE_SHARING_PACKED ? &s->packed[thread] : &s->slots[thread].value;
  uint64_t left = s->point.words;
  for (uint64_t step = 0; left > 0; step++) {
    if (stopping(s, thread, step, 1)) return;
    uint64_t n = left < X280_POLL_ADDS ? left : X280_POLL_ADDS;
    x280_count(counter, n);
    left -= n;
  }
}

static void empty_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  s->slots[thread].calls++;
}

static void serial_scan(x280_state_t *s) {
  const x280_cluster_mem_t *mem = &s->clusters[0];
  uint32_t base = 0;
  for (size_t ch = 0; ch < s->plan.chunks; ch++) {
    if (stopping(s, 0, ch, X280_POLL_CHUNKS)) return;
    size_t w0, w1;
    x280_plan_chunk_words(&s->plan, ch, &w0, &w1);
    base = x280_scan_range(mem->out + w0, mem->in + w0, w1 - w0, base, (x280_next_t){0});
  }
}

static int stop_code(x280_state_t *s) {
  return atomic_load_explicit(&s->stop, memory_order_relaxed);
}

int x280_op(x280_state_t *s) {
  x280_pool_t *pool = s->pool;
  unsigned threads = s->plan.threads;
  switch (s->plan.pattern) {
  case X280_MAP:
  case X280_MAP_VECTOR:
  case X280_MAP_HEAVY:
    push_inputs(s);
    x280_pool_run(pool, threads, map_fn, s);
    if (s->plan.clusters > 1 && stop_code(s) == 0) x280_pool_run(pool, threads, push_outputs_fn, s);
    break;
  case X280_REDUCTION:
    push_inputs(s);
    x280_pool_run(pool, threads, sum_fn, s);
    s->sum = 0;
    for (unsigned t = 0; t < threads; t++)
      s->sum += s->slots[t].value;
    break;
  case X280_PREFIX_SUM:
    push_inputs(s);
    x280_pool_run(pool, threads, chunk_sums_fn, s);
    if (stop_code(s) != 0) break;
    chunk_bases(s);
    x280_pool_run(pool, threads, chunk_scans_fn, s);
    if (s->plan.clusters > 1 && stop_code(s) == 0) x280_pool_run(pool, threads, push_outputs_fn, s);
    break;
  case X280_PREFIX_SUM_SERIAL:
    serial_scan(s);
    break;
  case X280_FALSE_SHARING_PACKED:
  case X280_FALSE_SHARING_PADDED:
    x280_pool_run(pool, threads, count_fn, s);
    break;
  case X280_FORK_JOIN_POOL:
    x280_pool_run(pool, threads, empty_fn, s);
    break;
  case X280_FORK_JOIN_OMP:
    x280_forkjoin_omp(threads, s->slots);
    break;
  case X280_PATTERN_COUNT:
    break;
  }
  return stop_code(s);
}

uint64_t x280_op_bytes(const x280_plan_t *plan) {
  const uint64_t word = sizeof(uint32_t);
  uint64_t pushed = 0, pushed_chunks = 0; /* what the other clusters' blocks hold */
  for (unsigned c = 1; c < plan->clusters; c++) {
    size_t c0, c1, w0, w1;
    x280_plan_block(plan, c, &c0, &c1);
    x280_plan_block_words(plan, c, &w0, &w1);
    pushed += w1 - w0;
    pushed_chunks += c1 - c0;
  }
  /* A push reads and writes each word; the prefix sum's chunk sums travel both ways too. */
  switch (plan->pattern) {
  case X280_MAP:
  case X280_MAP_VECTOR:
  case X280_MAP_HEAVY:
    return 2 * word * plan->words + 2 * 2 * word * pushed;
  case X280_REDUCTION:
    return word * plan->words + 2 * word * pushed;
  case X280_PREFIX_SUM:
    return 3 * word * plan->words + 2 * 2 * word * pushed + 2 * 2 * word * pushed_chunks;
  case X280_PREFIX_SUM_SERIAL:
    return 2 * word * plan->words;
  default:
    return 0;
  }
}
