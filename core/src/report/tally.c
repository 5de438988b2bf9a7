#include "tally.h"

#include <stdarg.h>
#include <stdio.h>

int rigor_verdict_judged(rigor_cmp_verdict_t v) {
  return v == RIGOR_CMP_SAME || v == RIGOR_CMP_FASTER || v == RIGOR_CMP_SLOWER ||
         v == RIGOR_CMP_INCONCLUSIVE;
}

/* The order a reader looks for them in: what moved, what did not, what is open. */
static const rigor_cmp_verdict_t judged_order[] = {RIGOR_CMP_SLOWER, RIGOR_CMP_FASTER,
                                                   RIGOR_CMP_SAME, RIGOR_CMP_INCONCLUSIVE};
static const rigor_cmp_verdict_t unjudged_order[] = {RIGOR_CMP_INVALID, RIGOR_CMP_INCOMPARABLE,
                                                     RIGOR_CMP_UNDETERMINED, RIGOR_CMP_MISSING};

typedef struct line {
  char *buf;
  size_t len, used;
} line_t;

static void add(line_t *l, const char *fmt, ...) {
  if (l->used >= l->len) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(l->buf + l->used, l->len - l->used, fmt, ap);
  va_end(ap);
  if (k > 0) l->used += (size_t)k;
}

static void counts(line_t *l, const rigor_tally_t *t, const rigor_cmp_verdict_t *order) {
  const char *sep = "";
  for (size_t i = 0; i < 4; i++) {
    if (!t->count[order[i]]) continue;
    add(l, "%s%zu %s", sep, t->count[order[i]], rigor_cmp_verdict_name(order[i]));
    sep = ", ";
  }
}

void rigor_tally_line(const rigor_tally_t *t, const char *noun, char *buf, size_t len) {
  size_t judged = 0, unjudged = 0;
  for (int v = 0; v < RIGOR_CMP_VERDICT_COUNT; v++) {
    if (rigor_verdict_judged((rigor_cmp_verdict_t)v))
      judged += t->count[v];
    else
      unjudged += t->count[v];
  }
  if (!len) return;
  buf[0] = '\0';
  line_t l = {buf, len, 0};
  add(&l, "%zu %s%s%s", judged, noun, judged == 1 ? "" : "s", judged ? ": " : " judged");
  counts(&l, t, judged_order);
  if (unjudged) {
    add(&l, "; %zu could not be judged: ", unjudged);
    counts(&l, t, unjudged_order);
  }
}
