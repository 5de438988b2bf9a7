/* SHA-256 as lowercase hex, of a buffer or of a file. */
#ifndef RIGOR_DIGEST_H
#define RIGOR_DIGEST_H

#include <stddef.h>

void rigor_sha256_hex(const void *data, size_t len, char out[65]);
/* Returns 0, RIGOR_ENOENT or RIGOR_EIO. */
int rigor_file_sha256(const char *path, char out[65]);

/* SHA-256 fed in pieces: begin, any number of updates, then the hex digest (which frees the
 * state). NULL from begin when out of memory. */
typedef struct rigor_sha256 rigor_sha256_t;
rigor_sha256_t *rigor_sha256_begin(void);
void rigor_sha256_update(rigor_sha256_t *h, const void *data, size_t len);
void rigor_sha256_end(rigor_sha256_t *h, char out[65]);
void rigor_sha256_free(rigor_sha256_t *h);

#endif
