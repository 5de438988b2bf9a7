/* Reading results files. */
#ifndef RIGOR_READER_H
#define RIGOR_READER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Reads every record of a results file into a JSON array. A truncated last line (what a killed
 * writer leaves) is skipped with *truncated set; a malformed line elsewhere is an error
 * "file:line:col: message". */
int rigor_results_load(const char *path, json_t **records, bool *truncated, char *err,
                       size_t errlen);

#endif
