/* Results files: JSON Lines, schema rigor.result/1 (see docs/results-format.md). */
#ifndef RIGOR_RESULTS_H
#define RIGOR_RESULTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define RIGOR_RESULT_SCHEMA "rigor.result/1"

/* Reads every record of a results file into a JSON array. A truncated last line (what a killed
 * writer leaves) is skipped with *truncated set; a malformed line elsewhere is an error
 * "file:line:col: message". */
int rigor_results_load(const char *path, json_t **records, bool *truncated, char *err,
                       size_t errlen);

#endif
