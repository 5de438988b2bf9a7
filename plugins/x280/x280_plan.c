#include "x280_plan.h"

#include <stdio.h>

#include "rigor/plugin.h"

static size_t round_up(size_t n, size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

static int refuse(char *why, size_t why_len, const char *text) {
  snprintf(why, why_len, "%s", text);
  return RIGOR_EINVAL;
}

int x280_plan_make(x280_plan_t *plan, const x280_params_t *p, char *why, size_t why_len) {
  if (p->pattern < 0 || p->pattern >= X280_PATTERN_COUNT)
    return refuse(why, why_len, "unknown pattern");
  if (p->words == 0) return refuse(why, why_len, "words must be at least 1");
  if (p->cores == 0) return refuse(why, why_len, "cores must be at least 1");
  if (p->alias_stride < 2 * X280_LINE_BYTES || p->alias_stride % (2 * X280_LINE_BYTES) != 0)
    return refuse(why, why_len, "alias_stride must be a positive multiple of 128 bytes");
  unsigned cpc = p->cores_per_cluster == 0 || p->cores_per_cluster > p->cores
                     ? (unsigned)p->cores
                     : (unsigned)p->cores_per_cluster;
  *plan = (x280_plan_t){
      .pattern = (x280_pattern_t)p->pattern,
      .layout = (x280_layout_t)p->layout,
      .words = p->words,
      .chunks = (p->words + X280_CHUNK_WORDS - 1) / X280_CHUNK_WORDS,
      .threads = (unsigned)p->cores,
      .cores_per_cluster = cpc,
      .clusters = (unsigned)((p->cores + cpc - 1) / cpc),
      .alias_stride = p->alias_stride,
  };
  if (plan->pattern == X280_PREFIX_SUM_SERIAL) {
    plan->threads = 1;
    plan->clusters = 1;
    plan->cores_per_cluster = 1;
  }
  if (!x280_plan_has_arrays(plan)) return 0;
  if (plan->clusters > plan->chunks)
    return refuse(why, why_len, "fewer chunks than clusters: raise words or cores_per_cluster");
  /* The input region is a whole number of strides; outside the aliased layout the input is padded
   * by half a stride so the output starts half a stride away from it in a one-way cache. */
  size_t bytes = p->words * sizeof(uint32_t);
  size_t in_region = round_up(bytes, plan->alias_stride);
  if (plan->layout != X280_ALIASED) in_region += plan->alias_stride / 2;
  plan->out_offset = in_region;
  plan->sums_offset = in_region + round_up(bytes, plan->alias_stride);
  plan->arena_bytes =
      plan->sums_offset + round_up(plan->chunks * sizeof(uint32_t), X280_LINE_BYTES);
  return 0;
}

bool x280_plan_has_arrays(const x280_plan_t *plan) {
  return plan->pattern <= X280_PREFIX_SUM_SERIAL;
}

void x280_plan_block(const x280_plan_t *plan, unsigned cluster, size_t *first, size_t *end) {
  *first = plan->chunks * cluster / plan->clusters;
  *end = plan->chunks * (cluster + 1) / plan->clusters;
}

void x280_plan_block_words(const x280_plan_t *plan, unsigned cluster, size_t *first, size_t *end) {
  size_t c0, c1, unused;
  x280_plan_block(plan, cluster, &c0, &c1);
  if (c0 == c1) {
    *first = *end = 0;
    return;
  }
  x280_plan_chunk_words(plan, c0, first, &unused);
  x280_plan_chunk_words(plan, c1 - 1, &unused, end);
}

unsigned x280_plan_cluster_of(const x280_plan_t *plan, unsigned thread) {
  return thread / plan->cores_per_cluster;
}

unsigned x280_plan_cluster_size(const x280_plan_t *plan, unsigned cluster) {
  unsigned first = cluster * plan->cores_per_cluster;
  unsigned left = plan->threads - first;
  return left < plan->cores_per_cluster ? left : plan->cores_per_cluster;
}

x280_walk_t x280_plan_walk(const x280_plan_t *plan, unsigned thread) {
  unsigned cluster = x280_plan_cluster_of(plan, thread);
  unsigned members = x280_plan_cluster_size(plan, cluster);
  unsigned local = thread - cluster * plan->cores_per_cluster;
  size_t first, end;
  x280_plan_block(plan, cluster, &first, &end);
  if (plan->layout == X280_QUARTERS) {
    size_t span = end - first;
    return (x280_walk_t){.first = first + span * local / members,
                         .end = first + span * (local + 1) / members,
                         .step = 1};
  }
  return (x280_walk_t){.first = first + local, .end = end, .step = members};
}

void x280_plan_chunk_words(const x280_plan_t *plan, size_t chunk, size_t *first, size_t *end) {
  *first = chunk * X280_CHUNK_WORDS;
  size_t last = *first + X280_CHUNK_WORDS;
  *end = last < plan->words ? last : plan->words;
}
