/* Appending records to a results file without ever leaving a broken line in the middle, and
 * with one writer at a time. */
#ifndef RIGOR_RESULTS_WRITE_H
#define RIGOR_RESULTS_WRITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef struct rigor_results_writer {
  int fd;
  char *path;
  off_t good_size; /* size after the last complete record */
  dev_t dev;       /* the file itself, whatever the spelling of its path */
  ino_t ino;
} rigor_results_writer_t;

/* What a results path may not be: empty, too long, a symlink, a folder, a FIFO or anything but a
 * regular file (when it exists). Returns 0 or RIGOR_ECONFIG with err. */
int rigor_results_check_path(const char *path, char *err, size_t errlen);

/* Opens for appending (mode 0644, never following a symlink, never blocking on a FIFO) and takes
 * an exclusive advisory lock (flock) held until close: a second writer of the same file is
 * refused with RIGOR_ECONFIG. An existing file is kept as it is; the caller then truncates it,
 * cuts its tail, or appends. A path that is not a regular file is RIGOR_ECONFIG; a failing
 * disk RIGOR_EIO. */
int rigor_results_open(rigor_results_writer_t *w, const char *path, char *err, size_t errlen);
/* Empties the file (--force). */
int rigor_results_truncate(rigor_results_writer_t *w, char *err, size_t errlen);
/* Cuts the file to `size` bytes (the end of its last complete line) and makes sure it ends in a
 * newline, so the next record starts a line of its own. */
int rigor_results_cut(rigor_results_writer_t *w, off_t size, char *err, size_t errlen);
/* Appends one record as one line. On a failed write (full disk, file size limit) the partial
 * line is cut off again, so the file stays valid, and an error names the file and the cause. */
int rigor_results_append(rigor_results_writer_t *w, const json_t *record, char *err, size_t errlen);
/* One record as one JSON line (compact, ASCII) on `fd`, whatever the fd is (a file, a pipe);
 * *written says how many bytes went. 0, RIGOR_ENOMEM when it cannot be serialised, or RIGOR_EIO
 * with errno when writing failed. */
int rigor_record_write_fd(int fd, const json_t *record, size_t *written);
int rigor_results_sync(rigor_results_writer_t *w, char *err, size_t errlen);
void rigor_results_close(rigor_results_writer_t *w);

/* Whether two paths name one file (device and inode); false when either does not exist. */
bool rigor_same_file(const char *a, const char *b);

#endif
