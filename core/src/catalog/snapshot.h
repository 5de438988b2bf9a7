/* Plugin snapshots. While a snapshot is open, every plugin file the loader maps is first copied
 * into a private folder (0700, named after this process) as a read-only file, and the copy is
 * what is mapped: the runs of an experiment and every process they start load the same bytes,
 * whatever happens to the original file meanwhile (replaced, rebuilt, rewritten in place). */
#ifndef RIGOR_SNAPSHOT_H
#define RIGOR_SNAPSHOT_H

#include <stddef.h>

/* Opens this process's snapshot, first removing those left by processes that died. Its folder
 * is removed by rigor_snapshot_close, or at exit. */
int rigor_snapshot_open(char *err, size_t errlen);
/* Removes the snapshot folder; only the process that opened it does (a forked child does not). */
void rigor_snapshot_close(void);
/* The file to map for plugin file `path`: its copy in the open snapshot (made on first use, one
 * per real path), or `path` itself when no snapshot is open in this process. */
int rigor_snapshot_take(const char *path, char *mapped, size_t cap, char *err, size_t errlen);

#endif
