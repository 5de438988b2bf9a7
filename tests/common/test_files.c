#include "test_files.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Reads a stream to its end. */
static char *read_all(FILE *f, size_t *len) {
  size_t cap = 4096, n = 0, got;
  char *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) free(buf);
      buf = grown;
    }
  }
  if (buf) buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

char *test_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = read_all(f, len);
  fclose(f);
  return buf;
}

static int exit_status(int status) {
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int test_capture(const char *cmd, char **out) {
  *out = NULL;
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  *out = read_all(p, NULL);
  return exit_status(pclose(p));
}

int test_rigor(const char *args, char **out) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", RIGOR_EXE, args);
  return test_capture(cmd, out);
}

static char *slurp_or_empty(const char *dir, const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *text = test_slurp(path, NULL);
  return text ? text : strdup("");
}

int test_rigor_vin(const char *dir, const char *env, char **out, char **err, const char *fmt,
                   va_list ap) {
  char args[4096], cmd[8192];
  vsnprintf(args, sizeof args, fmt, ap);
  snprintf(cmd, sizeof cmd, "cd '%s' && %s%s'%s' %s </dev/null >out.txt 2>err.txt", dir,
           env ? env : "", env ? " && " : "", RIGOR_EXE, args);
  int status = exit_status(system(cmd));
  *out = slurp_or_empty(dir, "out.txt");
  *err = slurp_or_empty(dir, "err.txt");
  return status;
}

int test_rigor_in(const char *dir, const char *env, char **out, char **err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = test_rigor_vin(dir, env, out, err, fmt, ap);
  va_end(ap);
  return rc;
}
