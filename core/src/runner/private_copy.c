#include "private_copy.h"
#include "file_copy.h"
#include "owned_dirs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rigor_private_copy_load(const char *so_path, const char *name, bool allow_unsafe,
                            rigor_loaded_t **out, char *err, size_t errlen) {
  char dir[PATH_MAX], file[PATH_MAX + 300];
  snprintf(dir, sizeof dir, "%s/rigor-arm-XXXXXX", rigor_tmp_root());
  if (!mkdtemp(dir)) {
    snprintf(err, errlen, "cannot make a private folder for a copy of %s: %s", so_path,
             strerror(errno));
    return RIGOR_EIO;
  }
  snprintf(file, sizeof file, "%s/%s.so", dir, name);
  int rc = 0;
  if (rigor_file_copy(so_path, file, S_IRUSR) != 0) {
    snprintf(err, errlen, "cannot copy %s to %s: %s", so_path, file, strerror(errno));
    rc = RIGOR_EIO;
  } else {
    const char *dirs[] = {dir, NULL};
    rigor_plugin_search_t search = {dirs, allow_unsafe, true};
    rc = rigor_plugin_load(name, &search, out, err, errlen);
  }
  /* Once mapped, the copy is no longer needed on disk. */
  unlink(file);
  rmdir(dir);
  return rc < 0 ? rc : 0;
}
