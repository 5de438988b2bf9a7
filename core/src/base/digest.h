/* SHA-256 as lowercase hex, of a buffer or of a file. */
#ifndef RIGOR_DIGEST_H
#define RIGOR_DIGEST_H

#include <stddef.h>

void rigor_sha256_hex(const void *data, size_t len, char out[65]);
/* Returns 0, RIGOR_ENOENT or RIGOR_EIO. */
int rigor_file_sha256(const char *path, char out[65]);

#endif
