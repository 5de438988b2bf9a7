#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static char path[128];

static void remove_dir(void) {
  if (path[0]) unlink(path);
  if (dir[0]) rmdir(dir);
}

const char *fuzz_file_write(const char *name, const uint8_t *data, size_t size) {
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/rigor-fuzz-XXXXXX");
    if (!mkdtemp(dir)) abort();
    atexit(remove_dir);
  }
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  if (fclose(f) != 0) abort();
  return path;
}
