/* Helpers for the config tests: scratch folders, files, loading with the fixture plugins. */
#ifndef RIGOR_TEST_CONFIG_SUPPORT_H
#define RIGOR_TEST_CONFIG_SUPPORT_H

#include <stddef.h>

#include "experiment.h"

/* A fresh scratch folder under the test's working directory; caller frees. */
char *scratch_dir(const char *tag);
/* Writes dir/name (creating sub-folders named in `name`) and returns the full path; caller frees.
 */
char *write_file(const char *dir, const char *name, const char *text);
/* Loads with the fixture plugin folder on the search path. */
int load(const char *path, const rigor_config_opts_t *base, rigor_config_t **cfg, char *err,
         size_t errlen);
/* The first line of an error message. */
char *first_line(const char *text);
/* Runs `rigor ARGS` through the shell (ARGS is shell text), stdout and stderr together in
 * *output (caller frees); returns the exit status, or -1 if it did not exit. */
int run_rigor(const char *args, char **output);

#endif
