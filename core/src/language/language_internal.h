/* Internals shared by the config loader's files: the node tree, diagnostics, field converters. */
#ifndef RIGOR_LANGUAGE_INTERNAL_H
#define RIGOR_LANGUAGE_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "experiment.h"
#include "bounds.h"

/* Bounds on the document walk: aliases share nodes, so a naive walk of "a billion laughs" would
 * expand exponentially. */
#define RIGOR_CONFIG_MAX_NODES      100000
#define RIGOR_CONFIG_MAX_DEPTH      64
#define RIGOR_CONFIG_MAX_FILE_BYTES (16u << 20)
/* Text that aliases may expand the document to, counted as if every alias were a copy. */
#define RIGOR_CONFIG_MAX_EXPANDED_BYTES (64u << 20)

typedef struct rigor__source {
  char *path;  /* as named by the user or the including file */
  char *real;  /* realpath, for cycle and folder checks */
  bool shared; /* found on the config path, or extended from such a file: held to trust.h */
  char *text;
  size_t len;
  struct rigor__source *next;
} rigor__source_t;

typedef enum { RIGOR__SCALAR, RIGOR__MAP, RIGOR__SEQ } rigor__kind_t;

/* A YAML node with its position. Maps hold keys[i] -> items[i]. Nodes live in the loader's arena
 * and are shared freely between trees (merging never copies leaves). */
typedef struct rigor__node {
  rigor__kind_t kind;
  const rigor__source_t *src;
  uint32_t line, col; /* 0-based, as libyaml reports */
  const char *text;   /* scalars */
  bool plain;         /* an unquoted scalar (only those can mean null) */
  size_t n;
  struct rigor__node **keys;
  struct rigor__node **items;
} rigor__node_t;

typedef struct rigor__chunk rigor__chunk_t;

typedef struct rigor__cfg {
  const rigor_config_opts_t *opts;
  char *err;
  size_t errlen;
  bool failed;
  rigor__chunk_t *arena;
  rigor__source_t *sources;
  json_t *warnings;
  rigor_loaded_t **plugins; /* loaded once per name for the whole file */
  size_t n_plugins;
  rigor_loaded_t **build_plugins; /* every build's plugin, loaded from its own folder */
  size_t n_build_plugins;
  const rigor_plugin_t *plugin; /* of the experiment being resolved (gate.expect names metrics) */
} rigor__cfg_t;

void *rigor__alloc(rigor__cfg_t *c, size_t size);
char *rigor__strdup(rigor__cfg_t *c, const char *s);
void rigor__arena_free(rigor__cfg_t *c);

/* Records the first error as "file:line:col: message" plus the source line and a caret. Returns
 * RIGOR_ECONFIG. `at` may be NULL for errors without a position. */
int rigor__fail(rigor__cfg_t *c, const rigor__node_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rigor__warn(rigor__cfg_t *c, const rigor__node_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads and parses one file into a node tree. `from` is the node that named it (extends), or NULL
 * for the top file. */
int rigor__load_file(rigor__cfg_t *c, const char *path, const rigor__node_t *from,
                     rigor__node_t **root);

/* The closest candidate within a small edit distance, or NULL. */
const char *rigor_closest(const char *word, const char *const *candidates, size_t n);

/* Node helpers. */
const rigor__node_t *rigor__get(const rigor__node_t *map, const char *key);
bool rigor__is_null(const rigor__node_t *n);
const char *rigor__kind_name(const rigor__node_t *n);
int rigor__expect(rigor__cfg_t *c, const rigor__node_t *n, rigor__kind_t kind, const char *what);
/* Unknown keys are errors with a did-you-mean; `allowed` is NULL-terminated. */
int rigor__check_keys(rigor__cfg_t *c, const rigor__node_t *map, const char *const *allowed,
                      const char *where);
/* The node as JSON, for JSON params: lists become arrays, mappings objects, scalars strings and
 * plain nulls null. NULL when out of memory or not valid UTF-8. */
json_t *rigor__node_json(const rigor__node_t *n);
rigor__node_t *rigor__scalar_like(rigor__cfg_t *c, const rigor__node_t *at, const char *text);
rigor__node_t *rigor__map_without(rigor__cfg_t *c, const rigor__node_t *map, const char *key);

int rigor__get_uint(rigor__cfg_t *c, const rigor__node_t *n, const char *what, uint64_t min,
                    uint64_t max, uint64_t *out);
int rigor__get_bool(rigor__cfg_t *c, const rigor__node_t *n, const char *what, bool *out);
int rigor__get_duration(rigor__cfg_t *c, const rigor__node_t *n, const char *what, double *out);
int rigor__get_percent(rigor__cfg_t *c, const rigor__node_t *n, const char *what, double min,
                       double max, double *out);
int rigor__get_string(rigor__cfg_t *c, const rigor__node_t *n, const char *what, const char **out);
int rigor__get_enum(rigor__cfg_t *c, const rigor__node_t *n, const char *what,
                    const char *const *names, int *out);

/* extends: the tree with every `extends:` of this map resolved (deep merge, lists replace). */
/* `executor:` as {slurm: {nodes, partition, time_s, account}}; *out NULL when absent. */
int rigor__executor(rigor__cfg_t *c, const rigor__node_t *n, json_t **out);

int rigor__expand_extends(rigor__cfg_t *c, const rigor__node_t *map, rigor__node_t **out);
rigor__node_t *rigor__merge(rigor__cfg_t *c, const rigor__node_t *base, const rigor__node_t *over);
/* The pin of the document `root`: every extends it follows resolved (the top level, defaults:,
 * each experiment), then rigor__tree_sha256. */
int rigor__base_hash(rigor__cfg_t *c, const rigor__node_t *root, char hex[65]);
/* SHA-256 (hex) of a node tree as canonical JSON: maps as objects, lists as arrays, scalars as
 * their text (a plain null as null), so comments, layout and key order do not count. */
int rigor__tree_sha256(const rigor__node_t *tree, char hex[65]);
bool rigor__is_sha256(const char *text);

/* Core fields (timing.*, environment.*, gate.*): converters from a node to the canonical value. */
typedef int (*rigor__convert_fn)(rigor__cfg_t *c, const rigor__node_t *n, const char *what,
                                 json_t **out);
typedef struct rigor__field {
  const char *name;
  rigor__convert_fn convert;
  bool numeric;     /* accepts ranges in a matrix */
  bool object;      /* the value is an object (a labelled map carries its members, not `value`) */
  bool keeps_label; /* the canonical object has a `label` member of its own (noise) */
} rigor__field_t;

const rigor__field_t *rigor__field_find(const char *section, const char *name);
/* The section object with every field defaulted, then the node's members converted. */
int rigor__section(rigor__cfg_t *c, const char *section, const rigor__node_t *n, json_t **out);
/* The field names of a section, from its one table, into names[] (NULL-terminated, at most
 * cap - 1 of them) for did-you-mean; returns how many. */
#define RIGOR__SECTION_FIELDS_MAX 16
size_t rigor__section_names(const char *section, const char **names, size_t cap);
/* The core section (timing, environment, gate) spelled by the len characters at text, from the
 * same tables; NULL for none. */
const char *rigor__section_named(const char *text, size_t len);

/* Axes of the in-process sweep and the between-process matrix (axis.c, matrix.c). */
typedef struct rigor__axis_value {
  json_t *value;
  char *label;
  bool labelled;
  const rigor__node_t *node; /* where the value is written (its label's node when labelled) */
} rigor__axis_value_t;

typedef struct rigor__axis {
  const char *key;     /* as written: "bytes", "timing.warmup"; "build" */
  const char *section; /* "params", "timing", "environment", "gate"; "build" */
  const char *field;   /* NULL for build: the value is the whole settings member */
  const char *member;  /* "size" of the axis "vars.size" on a JSON param, else NULL */
  const rigor__node_t *node;
  rigor__axis_value_t *values;
  size_t n_values;
  json_t *seen_values; /* canonical text -> index, so duplicate checks stay linear */
  json_t *seen_labels;
} rigor__axis_t;

/* Resolves `key` to a plugin param (or, in a matrix, timing.* or environment.*) and converts
 * `values` into axis->values. */
int rigor__axis_read(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *key,
                     const rigor__node_t *values, bool in_matrix, rigor__axis_t *axis);
/* The index of the value of `axis` that n names (by label or by value). */
int rigor__axis_find(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__axis_t *axis,
                     const rigor__node_t *n, size_t *out);
void rigor__axis_release(rigor__axis_t *axis);

/* Variant labels (labels.c): "warmup=5, noise=same-core", each axis's short key and its value's
 * label. */
#define RIGOR__LABEL_AXIS_SEP  ", "
#define RIGOR__LABEL_VALUE_SEP "="
/* The axis's part of a variant label's key: the last part of its key ("warmup"). */
const char *rigor__label_key(const rigor__axis_t *axis);
/* The one rule for every label, whatever gave it (a matrix axis, a build from the file or from
 * --build): no separator inside, so variant labels split back into axes. `where` prefixes the
 * message when the value has no node ("--build L=DIR: "). */
int rigor__label_check(rigor__cfg_t *c, const rigor__axis_t *axis, const rigor__axis_value_t *v,
                       const char *where);
/* rigor__label_check for each value of a matrix axis. */
int rigor__axis_check_labels(rigor__cfg_t *c, const rigor__axis_t *axis);

int rigor__sweep(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n, json_t **out);
/* Whether two param axis keys set the same thing: equal, or a JSON param and one of its members
 * ("vars" and "vars.size"). */
bool rigor__axes_overlap(const char *a, const char *b);

/* The variants of matrix `n`. `builds` is the build axis (rigor__builds; no values for none),
 * which the matrix borrows: it takes the place of the matrix's own `build`, or comes first. */
int rigor__matrix(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                  const json_t *settings, const json_t *sweep, const rigor__axis_t *builds,
                  rigor_experiment_t *e, json_t **canonical);

/* build.c: the build axis of experiment `exp`: its matrix's `build` list of {label,
 * plugin_path} (relative to the file that names it), or --build LABEL=DIR (relative to the
 * current folder), which replaces it. Each folder's `plugin` is loaded from that folder alone,
 * with the loader's trust rules, and must declare the first build's schema exactly; *first is
 * the first build's plugin. No build axis leaves axis->n_values 0. */
int rigor__builds(rigor__cfg_t *c, const rigor__node_t *exp, const char *plugin,
                  rigor__axis_t *axis, const rigor_loaded_t **first);

/* order.interleave (interleave.c): the levels of matrix axis `axis` become the arms of every run
 * and the other axes form cells, filling e->interleave's axis, n_arms, n_cells and arms. `matrix`
 * is the matrix's canonical form; `at` is where the interleave was asked for, for the messages. */
int rigor__interleave(rigor__cfg_t *c, const rigor__node_t *at, const char *axis,
                      const json_t *matrix, rigor_experiment_t *e);

/* The plugin's own checks of every variant (check_params) and the commands its runs would
 * execute (commands), for rigor plan and the --allow-commands gate (plugin_hooks.c). `n` is the
 * experiment's merged map, where the param nodes are found. */
int rigor__plugin_hooks(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                        rigor_experiment_t *e);
/* The config path: --config-path folders, then RIGOR_CONFIG_PATH's (colon-separated), in the
 * arena. Returns how many, at most `cap` (extends.c). */
size_t rigor__config_path(rigor__cfg_t *c, const char **dirs, size_t cap);
/* Whether real path `path` is the real folder `dir` or lies under it (extends.c). */
bool rigor__path_within(const char *dir, const char *path);
/* Each variant's launcher, listed first among its commands (launcher_commands.c). */
int rigor__launcher_commands(rigor__cfg_t *c, const rigor__node_t *n, rigor_experiment_t *e);

#endif
