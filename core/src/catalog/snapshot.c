#include "snapshot.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_copy.h"
#include "owned_dirs.h"
#include "rigor/plugin.h"

typedef struct copy {
  char *real; /* the original's real path */
  char *file; /* its copy */
} copy_t;

static struct {
  pid_t owner; /* 0 when none is open */
  char dir[PATH_MAX];
  copy_t *copies;
  size_t n;
  bool at_exit;
} snap;

void rigor_snapshot_close(void) {
  if (!snap.owner || snap.owner != getpid()) return;
  rigor_tree_remove(snap.dir);
  for (size_t i = 0; i < snap.n; i++)
    free(snap.copies[i].real), free(snap.copies[i].file);
  free(snap.copies);
  snap.copies = NULL;
  snap.n = 0;
  snap.owner = 0;
}

int rigor_snapshot_open(char *err, size_t errlen) {
  if (snap.owner == getpid()) return 0;
  if (rigor_owned_dir_make("rigor-snap", snap.dir, sizeof snap.dir) != 0) {
    snprintf(err, errlen, "cannot make a private folder for the plugin snapshots in %s: %s",
             rigor_tmp_root(), strerror(errno));
    return RIGOR_EIO;
  }
  snap.owner = getpid();
  if (!snap.at_exit) snap.at_exit = atexit(rigor_snapshot_close) == 0;
  return 0;
}

static int remember(const char *real, const char *file) {
  copy_t *grown = realloc(snap.copies, (snap.n + 1) * sizeof *grown);
  if (!grown) return -1;
  snap.copies = grown;
  grown[snap.n].real = strdup(real);
  grown[snap.n].file = strdup(file);
  if (!grown[snap.n].real || !grown[snap.n].file) {
    free(grown[snap.n].real), free(grown[snap.n].file);
    return -1;
  }
  snap.n++;
  return 0;
}

int rigor_snapshot_take(const char *path, char *mapped, size_t cap, char *err, size_t errlen) {
  if (!snap.owner || snap.owner != getpid()) {
    snprintf(mapped, cap, "%s", path);
    return 0;
  }
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    snprintf(err, errlen, "%s: cannot resolve: %s", path, strerror(errno));
    return RIGOR_EIO;
  }
  for (size_t i = 0; i < snap.n; i++)
    if (strcmp(snap.copies[i].real, real) == 0) {
      snprintf(mapped, cap, "%s", snap.copies[i].file);
      return 0;
    }
  /* One folder per file, under the file's own name: two builds' stream.so stay apart, and a
   * run started as a new program finds its plugin in its folder as it would in the original. */
  const char *base = strrchr(real, '/');
  base = base ? base + 1 : real;
  char folder[PATH_MAX];
  if (snprintf(folder, sizeof folder, "%s/%zu", snap.dir, snap.n) >= (int)sizeof folder ||
      snprintf(mapped, cap, "%s/%s", folder, base) >= (int)cap) {
    snprintf(err, errlen, "%s: the snapshot's path would be too long", path);
    return RIGOR_EINVAL;
  }
  if (mkdir(folder, 0700) != 0 || rigor_file_copy(real, mapped, S_IRUSR) != 0) {
    snprintf(err, errlen, "%s: cannot copy it into the plugin snapshot %s: %s", path, folder,
             strerror(errno));
    return RIGOR_EIO;
  }
  if (remember(real, mapped) != 0) {
    snprintf(err, errlen, "out of memory");
    return RIGOR_ENOMEM;
  }
  return 0;
}
