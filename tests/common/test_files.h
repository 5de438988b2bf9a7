/* What many tests do with files and with the rigor binary: read a file whole, run a command and
 * keep its output, run `rigor ARGS` in a scratch folder. */
#ifndef RIGOR_TESTS_TEST_FILES_H
#define RIGOR_TESTS_TEST_FILES_H

#include <stdarg.h>
#include <stddef.h>

/* The whole file, NUL-terminated (malloc'd; *len its length when len is not NULL), or NULL when
 * it cannot be read. */
char *test_slurp(const char *path, size_t *len);

/* Runs a shell command; *out gets what it wrote to stdout (malloc'd; add 2>&1 to the command for
 * stderr too). Returns its exit status, or -1 when it did not exit. */
int test_capture(const char *cmd, char **out);

/* Runs `rigor ARGS` (shell text); *out gets its stdout and stderr together. Returns its exit
 * status, -1 when it did not exit. */
int test_rigor(const char *args, char **out);

/* Runs `rigor ARGS` (ARGS is shell text, after printf formatting) in folder `dir` with stdin
 * empty; *out and *err get its stdout and stderr (malloc'd, "" when nothing). `env` is shell
 * text put before the command ("F=/path"), or NULL. Returns the exit status, -1 when it did not
 * exit. */
int test_rigor_in(const char *dir, const char *env, char **out, char **err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int test_rigor_vin(const char *dir, const char *env, char **out, char **err, const char *fmt,
                   va_list ap) __attribute__((format(printf, 5, 0)));

#endif
