#include "trust.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"

int rigor_trust_check(const char *path, rigor_distrust_t *out) {
  char real[PATH_MAX];
  out->path[0] = '\0';
  out->why = NULL;
  if (!realpath(path, real)) return 0;
  uid_t me = geteuid();
  bool is_file = true;
  for (;;) {
    struct stat st;
    if (stat(real, &st) != 0) return 0;
    if (st.st_uid != 0 && st.st_uid != me)
      out->why = "is owned by another user";
    else if ((st.st_mode & S_IWOTH) && (is_file || !(st.st_mode & S_ISVTX)))
      out->why = "is world-writable";
    else if (is_file && (st.st_mode & S_IWGRP))
      out->why = "is group-writable";
    if (out->why) {
      memcpy(out->path, real, sizeof real);
      return RIGOR_EINVAL;
    }
    char *slash = strrchr(real, '/');
    if (!slash || (slash == real && real[1] == '\0')) break;
    if (slash == real)
      slash[1] = '\0';
    else
      *slash = '\0';
    is_file = false;
  }
  return 0;
}
