/* The run's scratch folder, {tmp}: $TMPDIR/rigor-exec-PID-XXXXXX, PID the process that made it.
 * It goes on every way out: at fini; on SIGTERM, SIGINT or SIGHUP of a process that would die of
 * them (the handler removes it, then dies of the signal as before); and, for a process killed
 * outright (SIGKILL), at the next run's start, which sweeps every folder whose owner is gone. */
#ifndef EXEC_TMP_H
#define EXEC_TMP_H

#include <stddef.h>

/* Removes the folders of owners that are gone, then makes this process's own into `path`.
 * Returns 0 or -errno (path empty). */
int exec_tmp_make(char *path, size_t cap);

/* Removes `path` with everything in it, and the signal guard that would have removed it. */
void exec_tmp_remove(const char *path);

#endif
