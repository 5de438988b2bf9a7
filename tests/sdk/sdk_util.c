#include "sdk_util.h"

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
  FILE *p = popen(full, "r");
  free(full);
  if (!p) return -1;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
    n += got;
    if (cap - n < 2) buf = realloc(buf, cap *= 2);
  }
  buf[n] = '\0';
  *out = buf;
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *sdk_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0, got;
  char *buf = malloc(cap);
  while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
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
