#include "support.h"
#include "test_files.h"

#include "environment.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *scratch_dir(const char *tag) {
  char tmpl[256];
  snprintf(tmpl, sizeof tmpl, "%s/config-%s-XXXXXX", RIGOR_BINARY_DIR "/tests", tag);
  char *dir = mkdtemp(tmpl);
  assert(dir);
  return strdup(dir);
}

char *write_file(const char *dir, const char *name, const char *text) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = malloc(len);
  snprintf(path, len, "%s/%s", dir, name);
  for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
  }
  FILE *f = fopen(path, "wb");
  assert(f);
  fwrite(text, 1, strlen(text), f);
  fclose(f);
  return path;
}

int load(const char *path, const rigor_config_opts_t *base, rigor_config_t **cfg, char *err,
         size_t errlen) {
  static const char *const dirs[] = {RIGOR_TEST_PLUGIN_DIR, NULL};
  rigor_config_opts_t opts = {0};
  if (base) opts = *base;
  opts.search.extra_dirs = dirs;
  if (!opts.check_machine) opts.check_machine = rigor_environment_check;
  return rigor_config_load(path, &opts, cfg, err, errlen);
}

char *first_line(const char *text) {
  size_t n = strcspn(text, "\n");
  char *out = malloc(n + 1);
  memcpy(out, text, n);
  out[n] = '\0';
  return out;
}

int run_rigor(const char *args, char **output) {
  return test_rigor(args, output);
}
