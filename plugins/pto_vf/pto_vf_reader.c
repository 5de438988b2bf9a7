#include "pto_vf_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

void vf_reader_from_memory(vf_reader_t *r, const char *data, size_t len) {
  memset(r, 0, sizeof *r);
  r->fd = -1;
  r->data = data ? data : "";
  r->end = data ? len : 0;
  r->eof = 1;
}

int vf_reader_from_fd(vf_reader_t *r, int fd) {
  memset(r, 0, sizeof *r);
  r->fd = fd;
  r->buf = malloc(VF_READER_BUFFER);
  r->data = r->buf;
  return r->buf ? 0 : -ENOMEM;
}

void vf_reader_release(vf_reader_t *r) {
  free(r->buf);
  r->buf = NULL;
  r->data = NULL;
}

/* Refill after moving the unread tail to the front; returns bytes read, 0 at EOF, -errno. */
static ssize_t refill(vf_reader_t *r) {
  if (r->start > 0) {
    memmove(r->buf, r->buf + r->start, r->end - r->start);
    r->end -= r->start;
    r->start = 0;
  }
  for (;;) {
    ssize_t got = read(r->fd, r->buf + r->end, VF_READER_BUFFER - r->end);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -errno;
    if (got == 0) r->eof = 1;
    r->end += (size_t)got;
    return got;
  }
}

static int take_line(vf_reader_t *r, size_t n, size_t skip, int too_long, const char **line,
                     size_t *len) {
  *line = r->data + r->start;
  *len = n;
  r->start += n + skip;
  r->bytes += n + skip;
  r->line_no++;
  return too_long || n > VF_READER_MAX_LINE ? VF_READ_TOO_LONG : VF_READ_LINE;
}

/* Whatever the block scan had reached, it restarts from the next line. */
static int restart_blocks(vf_reader_t *r, int rc) {
  r->scanned = r->start;
  r->nl_mask = 0;
  return rc;
}

int vf_reader_next_refill(vf_reader_t *r, const char **line, size_t *len) {
  /* The block scan found no '\n' from start to scanned. */
  size_t scanned = r->scanned;
  int too_long = 0;
  for (;;) {
    const char *nl = memchr(r->data + scanned, '\n', r->end - scanned);
    if (nl)
      return restart_blocks(
          r, take_line(r, (size_t)(nl - (r->data + r->start)), 1, too_long, line, len));
    if (r->eof) {
      if (r->start == r->end) return restart_blocks(r, VF_READ_EOF);
      return restart_blocks(r, take_line(r, r->end - r->start, 0, too_long, line, len));
    }
    if (r->end - r->start >= VF_READER_BUFFER) {
      /* The line outgrew the buffer: drop what we have and keep skipping to its end. */
      r->bytes += r->end - r->start;
      r->start = r->end = 0;
      too_long = 1;
    }
    size_t keep = r->end - r->start;
    ssize_t got = refill(r);
    if (got < 0) return restart_blocks(r, (int)got);
    scanned = r->start + keep;
  }
}
