/* The YAML experiment loader: parse, extends, matrix and plugin schema checks, on any bytes. */
#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "environment.h"
#include "experiment.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const plugin_dirs[] = {RIGOR_TEST_PLUGIN_DIR, NULL};
  const char *path = fuzz_file_write("experiment.yaml", data, size);
  rigor_config_opts_t opts = {.search = {.extra_dirs = plugin_dirs, .allow_unsafe = true},
                              .check_machine = rigor_environment_check};
  rigor_config_t *cfg = NULL;
  char err[4096];
  int rc = rigor_config_load(path, &opts, &cfg, err, sizeof err);
  if (rc == 0) rigor_config_free(cfg);
  return 0;
}
