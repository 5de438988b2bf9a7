/* Copying a file byte for byte into a new file of our own. */
#ifndef RIGOR_FILE_COPY_H
#define RIGOR_FILE_COPY_H

#include <sys/types.h>

/* Copies `from` into `to`, which must not exist yet (O_EXCL: a planted file or link there is an
 * error, never written through), created with `mode`. Returns 0, or -1 with errno set and `to`
 * removed. */
int rigor_file_copy(const char *from, const char *to, mode_t mode);

#endif
