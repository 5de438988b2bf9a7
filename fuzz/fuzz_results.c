/* The results reader: JSON Lines with a tolerated truncated last line, on any bytes. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_file_write("results.jsonl", data, size);
  json_t *records = NULL;
  bool truncated = false;
  char err[4096];
  if (rigor_results_load(path, &records, &truncated, err, sizeof err) == 0) json_decref(records);
  return 0;
}
