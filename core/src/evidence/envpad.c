#include "envpad.h"
#include "rigor/plugin.h"
#include "rng.h"

#include <string.h>

int rigor_env_pad(uint64_t seed, uint32_t run, char *buf, size_t cap, size_t *len) {
  if (!buf || !len) return RIGOR_EINVAL;
  if (cap <= RIGOR_ENV_PAD_MAX) return RIGOR_ERANGE;
  /* A stream per run, so adding runs never changes the padding of earlier ones. */
  rigor_rng_t rng;
  rigor_rng_seed(&rng, seed ^ (0x9E3779B97F4A7C15ull * ((uint64_t)run + 1)));
  size_t n = (size_t)rigor_rng_below(&rng, RIGOR_ENV_PAD_MAX + 1);
  memset(buf, 'x', n);
  buf[n] = '\0';
  *len = n;
  return 0;
}
