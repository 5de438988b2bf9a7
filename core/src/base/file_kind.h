/* What a path is when it is not the regular file a command wants, in one wording for every
 * command: "a folder", "a FIFO", ... */
#ifndef RIGOR_FILE_KIND_H
#define RIGOR_FILE_KIND_H

#include <sys/stat.h>

/* "a folder", "a FIFO", "a socket", "a device", "a symbolic link", or "not a regular file". */
const char *rigor_file_kind(mode_t mode);

#endif
