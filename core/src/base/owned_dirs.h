/* Private folders named after the process that owns them ("PREFIX-PID-XXXXXX" in $TMPDIR or
 * /tmp): made 0700, removed by their owner, and swept by the next owner when a SIGKILL left one
 * behind. */
#ifndef RIGOR_OWNED_DIRS_H
#define RIGOR_OWNED_DIRS_H

#include <stddef.h>

/* $TMPDIR when set and not empty, else /tmp. */
const char *rigor_tmp_root(void);
/* Removes `path` and everything under it; symbolic links are removed, never followed. */
void rigor_tree_remove(const char *path);
/* Removes every folder PREFIX-PID-* in `root` that this user owns and whose PID is gone. */
void rigor_owned_dirs_sweep(const char *root, const char *prefix);
/* Sweeps, then makes a new folder PREFIX-PID-XXXXXX of this process in the temporary root.
 * Returns 0, or -1 with errno set. */
int rigor_owned_dir_make(const char *prefix, char *out, size_t cap);

#endif
