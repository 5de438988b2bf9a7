#include "x280_check.h"

#include <inttypes.h>
#include <stdio.h>

#include "x280_reference.h"

typedef struct tally {
  rigor_check_t *check;
  const char *what;
} tally_t;

static void compare(tally_t *t, size_t index, uint64_t got, uint64_t expected) {
  rigor_check_t *check = t->check;
  check->checked++;
  if (got == expected) return;
  double err = got > expected ? (double)(got - expected) : (double)(expected - got);
  if (check->wrong == 0)
    snprintf(check->detail, sizeof check->detail,
             "%s %zu: got %" PRIu64 " (%#" PRIx64 "), expected %" PRIu64 " (%#" PRIx64 ")", t->what,
             index, got, got, expected, expected);
  check->wrong++;
  if (err > check->max_abs_err) check->max_abs_err = err;
  double rel = expected != 0 ? err / (double)expected : err;
  if (rel > check->max_rel_err) check->max_rel_err = rel;
}

static void check_map(const x280_state_t *s, tally_t *t, uint64_t rounds) {
  const uint32_t *in = s->clusters[0].in, *out = s->clusters[0].out;
  for (size_t w = 0; w < s->plan.words; w++)
    compare(t, w, out[w], x280_reference_map(in[w], rounds));
}

static void check_scan(const x280_state_t *s, tally_t *t) {
  const uint32_t *in = s->clusters[0].in, *out = s->clusters[0].out;
  uint32_t base = 0;
  for (size_t w = 0; w < s->plan.words; w++) {
    compare(t, w, out[w], base);
    base += in[w];
  }
}

static void check_counters(const x280_state_t *s, tally_t *t, bool packed, uint64_t per_op) {
  for (unsigned k = 0; k < s->plan.threads; k++) {
    uint64_t got = packed ? s->packed[k] : s->slots[k].value;
    compare(t, k, got, s->ops * per_op);
  }
}

static void check_calls(const x280_state_t *s, tally_t *t) {
  for (unsigned k = 0; k < s->plan.threads; k++)
    compare(t, k, s->slots[k].calls, s->ops);
}

int x280_check(const x280_state_t *s, rigor_check_t *check) {
  tally_t t = {.check = check, .what = "word"};
  switch (s->plan.pattern) {
  case X280_MAP:
  case X280_MAP_VECTOR:
    check_map(s, &t, 1);
    break;
  case X280_MAP_HEAVY:
    check_map(s, &t, s->point.rounds);
    break;
  case X280_REDUCTION:
    t.what = "sum of words";
    compare(&t, s->plan.words, s->sum, x280_reference_sum(s->clusters[0].in, s->plan.words));
    break;
  case X280_PREFIX_SUM:
  case X280_PREFIX_SUM_SERIAL:
    check_scan(s, &t);
    break;
  case X280_FALSE_SHARING_PACKED:
  case X280_FALSE_SHARING_PADDED:
    t.what = "counter of core";
    check_counters(s, &t, s->plan.pattern == X280_FALSE_SHARING_PACKED, s->point.words);
    break;
  case X280_FORK_JOIN_POOL:
  case X280_FORK_JOIN_OMP:
    t.what = "calls served by core";
    check_calls(s, &t);
    break;
  case X280_PATTERN_COUNT:
    break;
  }
  check->tolerance = 0;
  return check->wrong == 0 ? 0 : RIGOR_EVALIDATE;
}

void x280_plant_error(x280_state_t *s) {
  switch (s->plan.pattern) {
  case X280_REDUCTION:
    s->sum ^= 1;
    break;
  case X280_FALSE_SHARING_PACKED:
    s->packed[0] += 1;
    break;
  case X280_FALSE_SHARING_PADDED:
    s->slots[0].value += 1;
    break;
  case X280_FORK_JOIN_POOL:
  case X280_FORK_JOIN_OMP:
    s->slots[0].calls += 1;
    break;
  default:
    s->clusters[0].out[s->plan.words / 2] ^= 1;
    break;
  }
}
