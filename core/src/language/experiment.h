/* The resolved experiment: what the config loader produces and the runner consumes.
 *
 * Everything resolved is kept as canonical JSON (jansson), so the same object is printed by
 * `rigor config`, hashed into the results, shipped to a launcher's child, and read by the runner.
 * Canonical forms: sizes are integers in bytes, durations are seconds (real), percentages are
 * fractions (5% -> 0.05), enums are their choice strings, keys are sorted when dumped.
 *
 * A variant's `settings` object has exactly these members:
 *   plugin       string
 *   params       object  param name -> canonical value (every schema param, defaults filled)
 *   sweep        array   [{"axis": param name, "values": [canonical values...]}, ...]; the
 *                         in-process points are their cartesian product, first axis outermost
 *   timing       object  see rigor_timing_t (all fields present)
 *   environment  object  see rigor_environment_t (fields.c writes it, evidence/environment.h
 *                         checks it against the machine; docs/environment.md)
 *   gate         object  {cv_max, min_samples}
 *   launcher     array of strings, or null
 *   ranks        integer, the "{ranks}" of a launcher
 *   deadline     real seconds or null
 *   build        {label, plugin_path (absolute, canonical)}: only with a build axis; the run
 *                loads the plugin from that folder
 * Variants share unchanged sub-objects by reference count: treat settings as read-only.
 */
#ifndef RIGOR_EXPERIMENT_H
#define RIGOR_EXPERIMENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "environment_settings.h"
#include "loader.h"
#include "plan.h"
#include "timing.h"

typedef struct rigor_variant {
  char *label;      /* human label: axis labels joined by ", " ("warmup=5, noise=same-core") */
  json_t *axes;     /* object: axis key ("timing.warmup", "bytes") -> value or its label */
  json_t *settings; /* fully resolved settings, as described above */
  /* settings.timing, parsed once here: the runner and the plan read this, never the JSON. */
  rigor_timing_t timing;
  /* settings.environment, parsed once likewise; it borrows the binding and the burners from
   * `settings`. */
  rigor_environment_t environment;
  char *commands;     /* the external commands its runs would execute, one per line; NULL: none */
  uint64_t footprint; /* bytes one plugin instance holds (its footprint hook); 0: unknown */
} rigor_variant_t;

typedef struct rigor_experiment {
  char *name;
  char *source;     /* the file it came from */
  json_t *resolved; /* canonical resolved experiment (what `rigor config` prints) */
  char hash[65];    /* rigor_experiment_hash of `resolved` */
  rigor_variant_t *variants;
  uint32_t n_variants;
  rigor_order_t order;
  rigor_schedule_t schedule; /* with interleaved arms, its cells are cell indices */
  rigor_interleave_t interleave;
  char *output;       /* results file path, resolved against the current directory */
  bool runs_commands; /* some variant would execute an external command */
} rigor_experiment_t;

typedef struct rigor_config {
  char *path;
  json_t *sources; /* every file read: the config and what it extends (real paths) */
  rigor_experiment_t *experiments;
  uint32_t n_experiments;
  json_t *warnings; /* array of strings */
  /* `executor:`: {slurm: {nodes, partition, time_s, account}}, or NULL; outside every
   * experiment's hash (it says where the experiments run, not what they are). */
  json_t *executor;
} rigor_config_t;

/* --build LABEL=DIR: one level of the build axis given on the command line. */
typedef struct rigor_build_opt {
  const char *label;
  const char *dir; /* relative to the current folder */
} rigor_build_opt_t;

typedef struct rigor_config_opts {
  rigor_plugin_search_t search;    /* where plugins are found (loader.h) */
  const rigor_build_opt_t *builds; /* replace (or add) every experiment's build axis */
  size_t n_builds;
  bool allow_external_extends;
  /* --config-path folders, NULL-terminated, searched before RIGOR_CONFIG_PATH's (extends.c). */
  const char *const *config_dirs;
  const char *only;            /* --only NAME, or NULL */
  const char *output_override; /* -o OUT, or NULL */
  /* Checks a canonical environment field ("affinity", "noise") against this machine: the
   * language reads no hardware itself, so the caller lends the check. NULL checks nothing. */
  int (*check_machine)(const char *field, const json_t *value, char *err, size_t errlen);
} rigor_config_opts_t;

/* Parse, resolve and validate a YAML experiment file against the plugins' schemas. On error
 * returns RIGOR_ECONFIG and writes "file:line:col: message\n  source line\n  caret" to err. */
int rigor_config_load(const char *path, const rigor_config_opts_t *opts, rigor_config_t **out,
                      char *err, size_t errlen);
void rigor_config_free(rigor_config_t *cfg);

/* The pin of a shared base, what `extends: {file, sha256}` compares: SHA-256 (hex) of the file's
 * canonical text with every extends it follows resolved. The file need not be a whole experiment.
 * On error returns RIGOR_ECONFIG with the message in err. */
int rigor_config_base_hash(const char *path, const rigor_config_opts_t *opts, char hex[65],
                           char *err, size_t errlen);

/* The experiment hash: SHA-256 (hex) of the canonical dump of the hashed form, which is `resolved`
 * without its free text (`description`). The hashed form is what `rigor config --canonical`
 * prints; caller decrefs it. */
json_t *rigor_experiment_hashed_form(const json_t *resolved);
int rigor_experiment_hash(const json_t *resolved, char hex[65]);

#endif
