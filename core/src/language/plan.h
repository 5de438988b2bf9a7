/* Balanced run orders: which variant runs at each (block, position). Each order design is one
 * entry of the designs table; config, plan and the experiment record all read it from there. */
#ifndef RIGOR_PLAN_H
#define RIGOR_PLAN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct rigor_design rigor_design_t;

typedef struct rigor_order {
  const rigor_design_t *design;
  uint32_t replicates; /* number of blocks; default 1; the most blocks when adaptive */
  uint64_t seed;       /* default 0 */
  bool randomize;      /* designs with squares: permute rows and relabel variants with `seed` */
  /* replicates: {min, max, precision}. After min_blocks blocks, whole blocks are added until
   * every contrast's (or, without contrasts, every row's) 95% half-width is at most `precision`,
   * `replicates` (max) blocks have run, or the deadline passes. precision 0: a fixed count. */
  uint32_t min_blocks;
  double precision;
  /* replicates.decided: the threshold of the contrasts' verdicts; once every verdict at it is
   * beyond doubt (docs/methodology.md, "Stopping"), no more blocks are added. 0: off. */
  double decided;
} rigor_order_t;

struct rigor_design {
  const char *name;
  const char *summary;
  /* Rows of one complete square for n variants, the unit over which the design balances; NULL
   * when every block stands alone. */
  uint32_t (*square_rows)(uint32_t n);
  /* Block b's order before randomisation: out[position] = variant. `row` is the square row the
   * block takes (b itself for designs without squares). */
  void (*row)(const rigor_order_t *order, uint32_t n, uint32_t b, uint32_t row, uint32_t *out);
  bool balances_position;  /* every variant has the same mean position */
  bool balances_carryover; /* every variant follows every other equally often (first order) */
  bool randomisable;       /* rows may be permuted and variants relabelled (order.randomize) */
};

/* The designs, NULL-name-terminated, in the order the docs list them. */
extern const rigor_design_t rigor_designs[];
const rigor_design_t *rigor_design_find(const char *name);
/* The designs' names, NULL-terminated (for enum parsing and did-you-mean). */
const char *const *rigor_design_names(void);

typedef struct rigor_schedule {
  uint32_t n_blocks;
  uint32_t n_variants;
  uint32_t *cells;      /* cells[block * n_variants + position] = variant index */
  uint32_t square_rows; /* rows of one complete square; 0 when the design has none */
  bool incomplete;      /* n_blocks is not a multiple of square_rows */
} rigor_schedule_t;

/* order.interleave: the levels of one matrix axis run as arms inside every run. The other axes
 * form cells; the schedule orders cells (its `cells` then hold cell indices), and each run hosts
 * one cell with all its arms. Inside a run, cycle c measures the arms in the order of row
 * (c + offsets[block]) % square_rows of a Williams square over the arms: ABBA/BAAB for two. */
typedef struct rigor_interleave {
  char *axis; /* the matrix axis whose levels are the arms; NULL: every run is one variant */
  uint32_t n_arms, n_cells;
  uint32_t *arms; /* arms[cell * n_arms + arm] = variant; arms in the axis's level order */
  uint32_t square_rows;
  uint32_t *square; /* square[row * n_arms + slot] = arm */
  uint32_t n_blocks;
  uint32_t *offsets; /* per block: the square row its runs' cycle 0 takes */
} rigor_interleave_t;

/* Fills the interleave's square and per-block offsets for n_blocks blocks: the rows come from the
 * Williams design, the offset of block b is (a draw from the seed + b) mod the square's rows, so
 * the arm that starts a run rotates from block to block. Returns 0 or RIGOR_ENOMEM. */
int rigor_interleave_order(const rigor_order_t *order, uint32_t n_blocks, rigor_interleave_t *il);
void rigor_interleave_free(rigor_interleave_t *il);
/* "abba" for two arms, "williams" for more. */
const char *rigor_interleave_order_name(const rigor_interleave_t *il);
/* The schedule as the experiment record holds it, with interleaved arms: `blocks` hold each
 * run's first arm's variant (the run record's `variant`), and `interleave` is added as
 * {axis, levels, arms, order, square, offsets}. `levels` are the axis's labels in arm order. */
void rigor_interleave_describe(const rigor_interleave_t *il, const json_t *levels, json_t *sched);

/* Builds the schedule; returns 0 or RIGOR_EINVAL / RIGOR_ENOMEM. Block b depends only on the
 * order and b, so a longer schedule starts with the shorter one. */
int rigor_plan_build(const rigor_order_t *order, uint32_t n_variants, rigor_schedule_t *out);
void rigor_schedule_free(rigor_schedule_t *s);
/* The schedule as the experiment record holds it: {design, seed, replicates, randomize,
 * square_rows, incomplete, blocks: [[variant per position]...]}, and for adaptive replication
 * adaptive: {min, max, precision} (the blocks are then the `max` the schedule allows). */
json_t *rigor_schedule_describe(const rigor_order_t *order, const rigor_schedule_t *s);

#endif
