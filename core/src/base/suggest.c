#include "suggest.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
 * two neighbours ("rnu" is one step from "run") each cost one. */
static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return SIZE_MAX;
  size_t prev2[65], prev[65], cur[65];
  for (size_t j = 0; j <= lb; j++)
    prev[j] = j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
      if (prev[j] + 1 < best) best = prev[j] + 1;
      if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
        best = prev2[j - 2] + 1;
      cur[j] = best;
    }
    memcpy(prev2, prev, sizeof prev);
    memcpy(prev, cur, sizeof cur);
  }
  return prev[lb];
}

const char *rigor_closest(const char *word, const char *const *candidates, size_t n) {
  const char *best = NULL;
  size_t best_d = SIZE_MAX, limit = strlen(word) <= 4 ? 1 : strlen(word) / 3 + 1;
  for (size_t i = 0; i < n && candidates[i]; i++) {
    size_t d = edit_distance(word, candidates[i]);
    if (d < best_d) best_d = d, best = candidates[i];
  }
  return best_d <= limit ? best : NULL;
}

const char *rigor_did_you_mean(const char *word, const char *list, char *out, size_t cap) {
  enum { MAX_NAMES = 256 };
  char names[4096];
  const char *cands[MAX_NAMES];
  size_t n = 0;
  snprintf(names, sizeof names, "%s", list ? list : "");
  for (char *p = names; *p && n < MAX_NAMES;) {
    cands[n++] = p;
    char *sep = strstr(p, ", ");
    if (!sep) break;
    *sep = '\0';
    p = sep + 2;
  }
  /* A number is a value, not a misspelt name: '7' is not "almost '0'". */
  char *end = NULL;
  if (word && *word) (void)strtod(word, &end);
  bool number = end && *end == '\0';
  const char *near = word && !number ? rigor_closest(word, cands, n) : NULL;
  if (cap) out[0] = '\0';
  if (near && cap) snprintf(out, cap, " (did you mean '%s'?)", near);
  return out;
}
