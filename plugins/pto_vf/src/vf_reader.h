/* Line reader over a file descriptor (fixed buffer, streaming) or a memory block (zero copy). */
#ifndef VF_READER_H
#define VF_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Small enough that a refill stays in the core's L2 cache while it is parsed. */
#define VF_READER_BUFFER (256u << 10)
/* Longest accepted line; longer ones are skipped and reported as too long. */
#define VF_READER_MAX_LINE (64u << 10)

typedef enum { VF_READ_LINE = 1, VF_READ_EOF = 0, VF_READ_TOO_LONG = 2 } vf_read_t;

typedef struct vf_reader {
  int fd;           /* -1 for memory */
  char *buf;        /* owned buffer when reading a descriptor */
  const char *data; /* buf, or the memory block */
  size_t start;     /* first unread byte */
  size_t end;       /* end of the bytes in data */
  int eof;          /* nothing more to read beyond data[end] */
  uint64_t line_no; /* of the line last returned, from 1 */
  uint64_t bytes;   /* consumed so far */
} vf_reader_t;

void vf_reader_from_memory(vf_reader_t *r, const char *data, size_t len);
/* Allocates the buffer; returns 0 or -errno. */
int vf_reader_from_fd(vf_reader_t *r, int fd);
void vf_reader_release(vf_reader_t *r);
/* The rest of vf_reader_next, once no '\n' is left in the buffer: refills, the last line without
 * '\n', overlong lines. Called only from vf_reader_next. */
int vf_reader_next_refill(vf_reader_t *r, const char **line, size_t *len);

/* Next line without its '\n'. Returns a vf_read_t, or -errno on a read error. Inline so that the
 * common case, a whole line already buffered, costs one memchr. */
static inline int vf_reader_next(vf_reader_t *r, const char **line, size_t *len) {
  const char *p = r->data + r->start;
  const char *nl = memchr(p, '\n', r->end - r->start);
  if (!nl) return vf_reader_next_refill(r, line, len);
  size_t n = (size_t)(nl - p);
  *line = p;
  *len = n;
  r->start += n + 1;
  r->bytes += n + 1;
  r->line_no++;
  return n > VF_READER_MAX_LINE ? VF_READ_TOO_LONG : VF_READ_LINE;
}

#endif
