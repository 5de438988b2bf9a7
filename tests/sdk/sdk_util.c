#include "sdk_util.h"
#include "test_files.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int sdk_run(const char *cmd, char **out) {
  size_t len = strlen(cmd) + 8;
  char *full = malloc(len);
  snprintf(full, len, "%s 2>&1", cmd);
  int rc = test_capture(full, out);
  free(full);
  return rc;
}

char *sdk_read_file(const char *path, size_t *len) {
  return test_slurp(path, len);
}

void sdk_scratch_dir(const char *tag, char *out, size_t cap) {
  char parent[4096];
  snprintf(parent, sizeof parent, "%s/tests/sdk-scratch", RIGOR_BINARY_DIR);
  mkdir(parent, 0755);
  snprintf(out, cap, "%s/%s-%ld", parent, tag, (long)getpid());
  sdk_remove_tree(out);
  mkdir(out, 0755);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

void sdk_remove_tree(const char *path) {
  nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
