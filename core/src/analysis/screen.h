/* A fleet screen: the same experiment run on every node, each node judged against the fleet.
 * Per row (variant and point) a node's units are its runs: the log of each run's median figure
 * against the log of the fleet's median, which is the median over nodes of each node's mean log
 * run median. Their paired interval (a node's own runs, no other's) is the node's ratio to the
 * fleet; the intervals are Holm-adjusted over the nodes (the node with the k-th smallest p of m
 * gets level 1 - alpha / (m - k)), and the verdict is the one rule's (decide.h): `slow` where the
 * whole interval lies beyond the threshold on the worse side, `fast` on the better side, `same`
 * where it lies inside, `inconclusive` otherwise. A node with no usable run is `failed`, with
 * the reason. */
#ifndef RIGOR_SCREEN_H
#define RIGOR_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"

typedef enum {
  RIGOR_SCREEN_SAME = 0,
  RIGOR_SCREEN_SLOW,
  RIGOR_SCREEN_FAST,
  RIGOR_SCREEN_INCONCLUSIVE,
  RIGOR_SCREEN_FAILED,
  RIGOR_SCREEN_VERDICT_COUNT
} rigor_screen_verdict_t;
const char *rigor_screen_verdict_name(rigor_screen_verdict_t v);

/* One node's results: its analysis, or NULL with why it has none. */
typedef struct rigor_screen_input {
  const char *node;
  const rigor_analysis_t *analysis;
  const char *failure;
} rigor_screen_input_t;

typedef struct rigor_screen_entry {
  const char *node; /* borrowed from the inputs */
  char *row;        /* "variant / point" as the results name them; owned */
  rigor_screen_verdict_t verdict;
  const char *figure, *unit; /* the figure judged ("time_s") and its unit; borrowed */
  bool higher_is_better;
  double value;                /* the node's figure: the geometric mean of its run medians */
  double fleet;                /* the fleet's median of those */
  double ratio, lo, hi, level; /* node / fleet, its interval and that interval's level */
  double p, p_holm;            /* paired t of "log ratio = 0", and after Holm over the nodes */
  size_t n_runs;
  char reason[512];
} rigor_screen_entry_t;

typedef struct rigor_screen {
  double threshold, alpha;
  rigor_screen_entry_t *items; /* by row, then node in the inputs' order */
  size_t n;
  size_t count[RIGOR_SCREEN_VERDICT_COUNT];
} rigor_screen_t;

/* Judges every node of `in` (in the order given) at `threshold` (0.05 for 5%) and family-wise
 * level `alpha`. Returns 0, or RIGOR_EINVAL with `err` when no node has results to judge. */
int rigor_screen_judge(const rigor_screen_input_t *in, size_t n_nodes, double threshold,
                       double alpha, rigor_screen_t *out, char *err, size_t errlen);
void rigor_screen_free(rigor_screen_t *s);

/* A pair screen's units are pairs of nodes, "a+b". The nodes every pair of which is slow or
 * failed at some row where some other pair is neither, each in two pairs or more: the node the
 * bad pairs have in common, where a slow or broken link or NIC is most likely to be. A JSON
 * array of names, sorted; empty when the units are not pairs; NULL when memory runs out. */
json_t *rigor_screen_suspects(const rigor_screen_t *s);

#endif
