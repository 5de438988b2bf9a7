/* The options every command that reads experiment files shares (run, plan, validate, config),
 * and loading a file with them. */
#ifndef RIGOR_CONFIG_ARGS_H
#define RIGOR_CONFIG_ARGS_H

#include <stdbool.h>

#include "cli.h"
#include "experiment.h"

/* How many option table entries rigor_config_args_options writes. */
#define RIGOR_CONFIG_ARGS_N 6

typedef struct rigor_config_args {
  rigor_config_opts_t opts;
  rigor_strings_t dirs;        /* --plugin-path */
  rigor_strings_t config_dirs; /* --config-path */
  rigor_strings_t build_args;  /* --build LABEL=DIR, as given */
  rigor_build_opt_t *builds;   /* build_args split, for opts.builds */
  char **build_labels;         /* the labels' copies builds[] points at */
} rigor_config_args_t;

/* Zeroes `args` and writes the shared options' table entries to out[0..RIGOR_CONFIG_ARGS_N). */
void rigor_config_args_options(rigor_config_args_t *args, rigor_option_t *out);
/* After rigor_args_parse: points the config options at the folders and builds given. Returns -1
 * to go on, or RIGOR_EXIT_USAGE after a usage error (a --build that is no LABEL=DIR). */
int rigor_config_args_finish(const rigor_command_t *cmd, rigor_config_args_t *args);
void rigor_config_args_free(rigor_config_args_t *args);

/* Loads one file; prints the error, or the warnings, to stderr. Returns RIGOR_EXIT_OK or
 * RIGOR_EXIT_USAGE. */
int rigor_config_args_load(const rigor_config_args_t *args, const char *file, rigor_config_t **cfg);

#endif
