/* Helpers shared by the SDK tests: running commands, reading files, scratch folders. */
#ifndef SDK_UTIL_H
#define SDK_UTIL_H

#include <stddef.h>

/* Runs `cmd` through the shell with stderr merged into stdout; returns the exit status (or -1)
 * and the output, NUL-terminated, in a malloc'd *out. */
int sdk_run(const char *cmd, char **out);

/* The whole file, NUL-terminated, malloc'd; NULL when unreadable. *len may be NULL. */
char *sdk_read_file(const char *path, size_t *len);

/* A fresh folder under the build tree's test folder; `out` receives its path. */
void sdk_scratch_dir(const char *tag, char *out, size_t cap);

/* Removes a folder tree made by the tests. */
void sdk_remove_tree(const char *path);

#endif
