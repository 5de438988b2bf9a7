#include "fakeroot.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *fake_root_new(void) {
  char tmpl[] = "/tmp/rigor-env-XXXXXX";
  return mkdtemp(tmpl) ? strdup(tmpl) : NULL;
}

int fake_write(const char *root, const char *path, const char *content) {
  char full[4096];
  snprintf(full, sizeof full, "%s%s", root, path);
  for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')); p++) {
    *p = '\0';
    mkdir(full, 0755);
    *p = '/';
  }
  FILE *f = fopen(full, "w");
  if (!f) return -1;
  int ok = fputs(content, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void fake_root_free(char *root) {
  if (root) nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  free(root);
}
