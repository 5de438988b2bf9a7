/* The loaders under test read paths, so each input is written to a private temporary file. */
#ifndef RIGOR_FUZZ_FILE_H
#define RIGOR_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Writes data to NAME inside a folder private to this process (made on first use) and returns
 * the file's path; aborts on I/O failure, which is the machine's fault, not the input's. */
const char *fuzz_file_write(const char *name, const uint8_t *data, size_t size);

#endif
