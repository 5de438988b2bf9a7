#include "x280_cold.h"

#include "x280_ops.h"

/* Without hwloc's answer, assume a generous 32 MiB last-level cache. */
#define X280_LLC_FALLBACK   (32u << 20)
#define X280_WORDS_PER_LINE (X280_LINE_BYTES / sizeof(uint64_t))

size_t x280_cold_bytes(uint64_t llc_bytes) {
  if (llc_bytes == 0) llc_bytes = X280_LLC_FALLBACK;
  return (size_t)(2 * llc_bytes);
}

/* Reading is enough to push the arrays out, and leaves no dirty lines of its own for the measured
 * window to write back. */
static void evict_fn(unsigned thread, void *arg) {
  x280_state_t *s = arg;
  size_t lines = s->evict_words / X280_WORDS_PER_LINE;
  size_t first = lines * thread / s->threads_max;
  size_t end = lines * (thread + 1) / s->threads_max;
  uint64_t sum = 0;
  for (size_t line = first; line < end; line++)
    sum += s->evict[line * X280_WORDS_PER_LINE];
  volatile uint64_t sink = sum; /* keeps the loads */
  (void)sink;
}

int x280_cold_evict(x280_state_t *s) {
  x280_pool_run(s->pool, s->threads_max, evict_fn, s);
  return x280_poll_host(s);
}
