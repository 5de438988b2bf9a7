/* A plugin loaded from a private copy of its .so. glibc hands back the handle it already holds
 * for a file it has loaded (matched by path, and by device and inode), so two arms of one .so
 * share globals unless each maps a file of its own. */
#ifndef RIGOR_PRIVATE_COPY_H
#define RIGOR_PRIVATE_COPY_H

#include <stdbool.h>
#include <stddef.h>

#include "loader.h"

/* Copies `so_path` (a plugin named `name`: the snapshot's copy of a build's .so, snapshot.h)
 * read-only into a new private folder (mkdtemp, 0700, under $TMPDIR or /tmp), loads the copy with
 * the loader's checks, and removes the copy and its folder as soon as it is mapped, so no path of a
 * killed run is left behind. */
int rigor_private_copy_load(const char *so_path, const char *name, bool allow_unsafe,
                            rigor_loaded_t **out, char *err, size_t errlen);

#endif
