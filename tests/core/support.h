/* Helpers for tests that drive the real rigor binary. */
#ifndef RIGOR_TEST_SUPPORT_H
#define RIGOR_TEST_SUPPORT_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct cmd_result {
  int exit_code; /* -1 when killed by a signal */
  int signal;
  char *out;
  char *err;
} cmd_result_t;

/* A fresh temporary folder for one test; removed by tmpdir_remove. */
char *tmpdir_make(void);
void tmpdir_remove(char *dir);

/* The running test's scratch folder: cmocka_unit_test_setup_teardown(test, scratch_setup,
 * scratch_teardown) gives each test a fresh one. */
extern char *scratch;
int scratch_setup(void **st);
int scratch_teardown(void **st);
void write_file(const char *path, const char *text);
char *read_file(const char *path);
char *path_join(const char *dir, const char *name);

/* Runs `rigor ARGS...` (NULL-terminated) in `cwd`, capturing stdout and stderr. */
cmd_result_t rigor_exec(const char *cwd, const char *const *args);
void cmd_result_free(cmd_result_t *r);
/* Starts `rigor ARGS...` in the background; returns its pid. */
pid_t rigor_start(const char *cwd, const char *const *args);

/* Writes `yaml` to DIR/NAME and returns the path (caller frees). */
char *config_in(const char *dir, const char *name, const char *yaml);
/* Number of run records in a results file (0 when it does not exist yet). */
size_t run_records(const char *results);
/* Waits up to 10 s for at least n run records; returns how many there are. */
size_t wait_for_runs(const char *results, size_t n);

/* Every complete line of a results file, parsed (a cut last line is skipped). */
json_t *results_read(const char *path);
/* Records of `type`, optionally only those whose member `key` equals `value`. */
size_t results_count(const json_t *records, const char *type, const char *key, const char *value);
json_t *results_find_run(const json_t *records, int run);
/* Number of live processes whose command line contains `needle`. */
int processes_matching(const char *needle);

#endif
