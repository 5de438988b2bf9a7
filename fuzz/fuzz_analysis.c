/* The analysis loader behind `rigor report` and `rigor compare`: records of any shape must be
 * refused with a message or analysed, never trusted. */
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_file_write("results.jsonl", data, size);
  rigor_analysis_t *a = NULL;
  char err[4096];
  if (rigor_analysis_load(&path, 1, &a, err, sizeof err) == 0) rigor_analysis_free(a);
  return 0;
}
