#include "sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rigor/plugin.h"

int rigor_sysfs_read_line(const char *root, const char *path, char *buf, size_t cap) {
  char full[4096];
  snprintf(full, sizeof full, "%s%s", root ? root : "", path);
  FILE *f = fopen(full, "r");
  if (!f) return errno == ENOENT ? RIGOR_ENOENT : RIGOR_EIO;
  char *line = fgets(buf, (int)cap, f);
  fclose(f);
  if (!line) return RIGOR_EIO;
  buf[strcspn(buf, "\n")] = '\0';
  return 0;
}
