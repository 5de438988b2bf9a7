/* Options shared by `rigor plan`, `rigor validate` and `rigor config`, and loading the file they
 * name. */
#ifndef RIGOR_CONFIG_ARGS_H
#define RIGOR_CONFIG_ARGS_H

#include <stdbool.h>

#include "experiment.h"

#define RIGOR_MAX_PLUGIN_DIRS 64
#define RIGOR_MAX_CONFIG_DIRS 64
#define RIGOR_MAX_BUILDS      64

typedef struct rigor_config_args {
  const char *file;
  rigor_config_opts_t opts;
  const char *dirs[RIGOR_MAX_PLUGIN_DIRS + 1];
  const char *config_dirs[RIGOR_MAX_CONFIG_DIRS + 1];
  rigor_build_opt_t builds[RIGOR_MAX_BUILDS];
  bool canonical; /* rigor config --canonical */
  bool base_hash; /* rigor config --base-hash */
} rigor_config_args_t;

/* One --build LABEL=DIR into builds[*n] (the text stays in argv). Returns 0, or prints why not
 * and returns RIGOR_EXIT_USAGE. */
int rigor_build_arg(const char *cmd, char *arg, rigor_build_opt_t *builds, size_t *n);

/* Parses argv (argv[0] is the subcommand). Returns -1 to go on, or an exit code (help, usage). */
int rigor_config_args_parse(int argc, char **argv, const char *usage, bool accepts_canonical,
                            rigor_config_args_t *args);
/* Loads the file named on the command line; prints the error or the warnings to stderr. */
int rigor_config_args_load(rigor_config_args_t *args, rigor_config_t **cfg);

#endif
