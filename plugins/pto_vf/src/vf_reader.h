/* Line reader over a file descriptor (fixed buffer, streaming) or a memory block (zero copy). */
#ifndef VF_READER_H
#define VF_READER_H

#include <stddef.h>
#include <stdint.h>

#define VF_READER_BUFFER (1u << 20)
/* Longest accepted line; longer ones are skipped and reported as too long. */
#define VF_READER_MAX_LINE (64u << 10)

typedef enum { VF_READ_LINE = 1, VF_READ_EOF = 0, VF_READ_TOO_LONG = 2 } vf_read_t;

typedef struct vf_reader {
  int fd; /* -1 for memory */
  const char *mem;
  size_t mem_len;
  size_t pos;
  char *buf;
  size_t start, end;
  int eof;
  uint64_t line_no; /* of the line last returned, from 1 */
  uint64_t bytes;   /* consumed so far */
} vf_reader_t;

void vf_reader_from_memory(vf_reader_t *r, const char *data, size_t len);
/* Allocates the buffer; returns 0 or -errno. */
int vf_reader_from_fd(vf_reader_t *r, int fd);
void vf_reader_release(vf_reader_t *r);
/* Next line without its '\n'. Returns a vf_read_t, or -errno on a read error. */
int vf_reader_next(vf_reader_t *r, const char **line, size_t *len);

#endif
