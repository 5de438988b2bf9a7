/* nccl-tests results, from its printed table or its -J JSON, in one form: each run of a binary
 * (one collective) as a section of rows, one row per size (and type, operation and root), with
 * the out-of-place and the in-place measurement of that row. */
#ifndef RIGOR_IMPORT_NCCL_TESTS_H
#define RIGOR_IMPORT_NCCL_TESTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "import.h"

enum { NCCL_OUT_OF_PLACE = 0, NCCL_IN_PLACE = 1 };

typedef struct nccl_measure {
  bool present;
  double time_us, algbw_gbs, busbw_gbs;
  double wrong;       /* #wrong; NaN when not checked */
  json_t *iterations; /* -I: rigor's iterations member, or NULL */
} nccl_measure_t;

typedef struct nccl_row {
  size_t where; /* the line of a table row, the index in $.results of a JSON one */
  double size, count;
  char type[32], redop[32], root[32];
  nccl_measure_t m[2]; /* NCCL_OUT_OF_PLACE, NCCL_IN_PLACE */
} nccl_row_t;

typedef struct nccl_section {
  const char *path;
  size_t line;        /* where it starts (1 for a JSON file) */
  char program[128];  /* all_reduce_perf; "" when the output does not say */
  char version[64];   /* nccl-tests' own; "" when not printed */
  bool cputime;       /* the times are CPU times (-C 1) */
  bool complete;      /* its summary was printed: the binary ran to the end */
  json_t *settings;   /* -n, -w, -m, -c, -z, -I... under nccl-tests' own JSON names */
  json_t *identity;   /* {host, nccl_version, devices: [...]} */
  json_t *run_detail; /* per run: {ranks: [...with pids], out_of_bounds, avg_bus_bandwidth} */
  nccl_row_t *rows;
  size_t n_rows, cap_rows;
} nccl_section_t;

/* Appends a row; NULL when out of memory. */
nccl_row_t *nccl_section_row(nccl_section_t *s);
void nccl_section_free(nccl_section_t *s);

/* Reads the sections of an nccl-tests output (text) or -J file (JSON) into *out (n_out of them,
 * appended); a refusal in c. */
int nccl_read_text(rigor_import_ctx_t *c, const char *text, nccl_section_t **out, size_t *n_out);
int nccl_read_json(rigor_import_ctx_t *c, const json_t *doc, nccl_section_t **out, size_t *n_out);

#endif
