/* Shared by the store and history tests: results files of one synthetic experiment, and the
 * database each test case gets, SQLite or PostgreSQL (the cluster tests/history/pg_cluster.sh
 * starts as a ctest fixture). */
#ifndef RIGOR_TEST_HISTORY_SUPPORT_H
#define RIGOR_TEST_HISTORY_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hx_spec {
  const char *name;    /* experiment */
  const char *hash;    /* its config hash */
  const char *created; /* the experiment record's creation time: one execution */
  const char *point;   /* point label */
  uint32_t runs, cycles;
  double level;    /* seconds per operation */
  double sd_run;   /* relative sd between runs */
  double sd_cycle; /* relative sd between cycles of a run */
  uint64_t seed;
  double cv_max;
  const char *gate_extra; /* JSON members added to the gate, e.g. "\"change_window\":30" */
  const char *metric;     /* a plugin metric (higher is better) recorded per sample, or NULL */
  const char *unit;       /* the plugin's unit for `throughput`; NULL for items/s */
  double metric_value;
  const char *flag;    /* a metric declared with unit bool, 1 in every sample, or NULL */
  bool orphan_attempt; /* an extra attempt 0 of run 0 without a run record */
  const char *node;    /* the run records' slurm.node, or NULL for runs without a slurm member */
} hx_spec_t;

void hx_defaults(hx_spec_t *s);
/* Writes the file; returns its number of lines. */
size_t hx_write(const char *path, const hx_spec_t *s);

typedef enum { HX_SQLITE = 0, HX_POSTGRESQL } hx_backend_t;

/* From argv[1] ("sqlite" or "postgresql"). For PostgreSQL where the server binaries are missing,
 * prints why and exits 77, which ctest reports as skipped; a cluster that should be there and is
 * not fails the test. */
hx_backend_t hx_backend_from_args(int argc, char **argv);
const char *hx_backend_name(hx_backend_t b);
/* A fresh, empty database named `name` (created or dropped and created again) and its URL. */
void hx_fresh_db(hx_backend_t b, const char *name, char *url, size_t len);
/* Runs SQL directly on the database (for what rigor itself would refuse to do). */
void hx_sql(hx_backend_t b, const char *url, const char *sql);
/* The test's scratch folder, made empty. */
const char *hx_scratch(const char *test);

char *hx_slurp(const char *path);

#endif
