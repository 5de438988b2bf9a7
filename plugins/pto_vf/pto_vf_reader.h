/* Line reader over a file descriptor (fixed buffer, streaming) or a memory block (zero copy). */
#ifndef PTO_VF_READER_H
#define PTO_VF_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pto_vf_newline.h"

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
  /* Newlines are found a 64-byte block at a time: the bits of nl_mask are the newlines in
   * [start, scanned), at offsets from scanned - 64; none are left before start. */
  size_t scanned;
  uint64_t nl_mask;
  uint64_t line_no; /* of the line last returned, from 1 */
  uint64_t bytes;   /* consumed so far */
} vf_reader_t;

void vf_reader_from_memory(vf_reader_t *r, const char *data, size_t len);
/* Allocates the buffer; returns 0 or -errno. */
int vf_reader_from_fd(vf_reader_t *r, int fd);
void vf_reader_release(vf_reader_t *r);
/* The rest of vf_reader_next, once fewer than 64 unscanned bytes are buffered: refills, the last
 * line without '\n', overlong lines. Called only from vf_reader_next. */
int vf_reader_next_refill(vf_reader_t *r, const char **line, size_t *len);

/* Next line without its '\n'. Returns a vf_read_t, or -errno on a read error. Inline so that the
 * common case, a whole line already buffered, costs a few bit operations per line and one
 * newline mask per 64 bytes. */
static inline int vf_reader_next(vf_reader_t *r, const char **line, size_t *len) {
  while (r->nl_mask == 0) {
    if (r->end - r->scanned < 64) return vf_reader_next_refill(r, line, len);
    r->nl_mask = vf_newline_mask64(r->data + r->scanned);
    r->scanned += 64;
  }
  size_t nl = r->scanned - 64 + (size_t)__builtin_ctzll(r->nl_mask);
  r->nl_mask &= r->nl_mask - 1;
  size_t n = nl - r->start;
  *line = r->data + r->start;
  *len = n;
  r->start = nl + 1;
  r->bytes += n + 1;
  r->line_no++;
  return n > VF_READER_MAX_LINE ? VF_READ_TOO_LONG : VF_READ_LINE;
}

#endif
