/* Appending records to a results file without ever leaving a broken line in the middle. */
#ifndef RIGOR_RESULTS_WRITE_H
#define RIGOR_RESULTS_WRITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct rigor_results_writer {
  int fd;
  char *path;
  off_t good_size; /* size after the last complete record */
} rigor_results_writer_t;

/* Opens for appending (mode 0644, never following a symlink). Without `truncate`, an existing
 * non-empty file is kept as it is; the caller decides whether that is allowed. */
int rigor_results_open(rigor_results_writer_t *w, const char *path, bool truncate, char *err,
                       size_t errlen);
/* Appends one record as one line. On a failed write (full disk, file size limit) the partial
 * line is cut off again, so the file stays valid, and an error names the file and the cause. */
int rigor_results_append(rigor_results_writer_t *w, const json_t *record, char *err, size_t errlen);
int rigor_results_sync(rigor_results_writer_t *w, char *err, size_t errlen);
void rigor_results_close(rigor_results_writer_t *w);

#endif
