/* Other tools' results as rigor.result/1 records (docs/user-guide.md, "Importing results of
 * other tools"): each importer reads its tool's files and appends an experiment record, then each
 * run's samples and run record, keeping what the source holds and inventing nothing: a member
 * the source does not record is null or absent. */
#ifndef RIGOR_IMPORT_H
#define RIGOR_IMPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Converts `paths` (all of one tool) into `records`, an array it appends to. Returns 0, or
 * RIGOR_EINVAL with "file:line: message" or "file: $.json.path: message" in err. */
typedef int (*rigor_import_fn)(const char *const *paths, size_t n, json_t *records, char *err,
                               size_t errlen);

typedef struct rigor_importer {
  const char *format; /* the name `rigor import` takes: "hyperfine" */
  const char *what;   /* the files it reads, for --help */
  rigor_import_fn convert;
} rigor_importer_t;

extern const rigor_importer_t rigor_importers[]; /* ends with a NULL format */

/* What an import wrote, for the summary line. */
typedef struct rigor_import_counts {
  size_t experiments, runs, samples;
  json_t *notes; /* owned: what the sources do not record, each sentence once */
} rigor_import_counts_t;

typedef struct rigor_import_opts {
  const char *out;                       /* the results file to write */
  bool replace;                          /* an existing `out` is replaced rather than refused */
  const char *rigor_version, *rigor_git; /* the experiment records' `rigor` */
} rigor_import_opts_t;

/* Converts `paths` with `imp` and writes the records to o->out through a temporary file in the
 * same folder, renamed over it at the end, so a refused input leaves nothing behind. RIGOR_EINVAL
 * for a refused input, RIGOR_ECONFIG for an output that cannot be written, with err. */
int rigor_import_write(const rigor_importer_t *imp, const char *const *paths, size_t n,
                       const rigor_import_opts_t *o, rigor_import_counts_t *counts, char *err,
                       size_t errlen);

/* ---- for the importers ------------------------------------------------------------------- */

/* An imported experiment, from which the experiment record is built; every member is borrowed. */
typedef struct rigor_import_experiment {
  const char *name;
  const char *tool, *version; /* version NULL when the source does not record it */
  json_t *files;              /* [{file, sha256}] in run order */
  json_t *settings;           /* what the source says it ran with ({} when nothing) */
  json_t *axes;               /* [{axis, values: [{label, value}]}], variants' axes; NULL none */
  json_t *variants;           /* [{index, label, axes, settings}] */
  uint32_t blocks;            /* run r of every variant is block r */
  json_t *metrics;            /* [{name, unit, better}] the samples' metrics; NULL none */
  json_t *identity;           /* the host as the source describes it ({} when it does not) */
  const char *created;        /* when the source says it ran (ISO-8601), NULL when it does not */
  json_t *notes;              /* what the source does not record, as sentences */
} rigor_import_experiment_t;

/* The experiment record: config {schema, name, plugin: tool, settings, matrix, order}, its hash,
 * a sequential schedule of `blocks` blocks, plugin {name: tool, version, metrics} and
 * source {tool, version, file, sha256, notes} (with `files` when there are several). */
json_t *rigor_import_experiment_record(rigor_import_experiment_t *x);

/* One imported sample. NaN numbers are written as null; NULL JSON members as null. */
typedef struct rigor_import_sample {
  const char *experiment;
  uint32_t run, variant, cycle, point;
  const char *point_label; /* "" for none */
  json_t *point_params;    /* taken; NULL writes {} */
  const char *status;      /* ok, too_short, wrong, invalid */
  const char *window;      /* wall or cputime: which one time_s is */
  double time_s, wall_s, cputime_s, iters, agg, bytes, bus_factor;
  double bytes_per_s, busbw_bytes_per_s;
  json_t *check;   /* taken; NULL writes null */
  json_t *metrics; /* taken; NULL writes {} */
  json_t *extra;   /* taken: members set as they are, over the ones above (iterations) */
} rigor_import_sample_t;

/* A sample template with every number NaN and the window "wall". */
rigor_import_sample_t rigor_import_sample_init(const char *experiment);
json_t *rigor_import_sample_record(const rigor_import_sample_t *s);

/* A run record of an imported run: run = block × n_variants + variant, as the sequential
 * schedule places it. exit_code < 0 and NULL times for what the source does not record. */
typedef struct rigor_import_run {
  const char *experiment, *label;
  uint32_t block, variant, n_variants;
  const char *status; /* a run status name */
  const char *reason; /* for a status other than ok */
  int exit_code;
  const char *start, *end;
  double elapsed_s;
  json_t *identity; /* taken: per-run details of the source (plugin_identity); NULL {} */
} rigor_import_run_t;

uint32_t rigor_import_run_index(const rigor_import_run_t *r);
json_t *rigor_import_run_record(const rigor_import_run_t *r);

/* {file, sha256} of a file, or NULL with err when it cannot be read. */
json_t *rigor_import_file_entry(const char *path, char *err, size_t errlen);

/* Loads a JSON document, "file:line:col: message" in err when it is not one. */
json_t *rigor_import_load_json(const char *path, char *err, size_t errlen);

/* Where an importer is in its input, and the first refusal: "file: $.a[1].b: message" or
 * "file:line: message". */
typedef struct rigor_import_ctx {
  const char *path;
  char *err;
  size_t errlen;
  int rc; /* 0, or RIGOR_EINVAL once refused */
} rigor_import_ctx_t;

/* Records the first refusal at a JSON path (NULL: the file as a whole); returns RIGOR_EINVAL. */
int rigor_import_fail(rigor_import_ctx_t *c, const char *json_path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records the first refusal at a line of a text file; returns RIGOR_EINVAL. */
int rigor_import_fail_line(rigor_import_ctx_t *c, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The member `key` of the object at `json_path` when it has type `type` (JSON_REAL for any
 * number, JSON_TRUE for either boolean), else NULL after a refusal; an absent or null member is
 * no refusal when `optional`. */
json_t *rigor_import_get(rigor_import_ctx_t *c, const json_t *obj, const char *json_path,
                         const char *key, json_type type, bool optional);

/* The file's name without folders or `suffix` ("bench.json" -> "bench"), in buf. */
const char *rigor_import_stem(const char *path, const char *suffix, char *buf, size_t cap);

#endif
