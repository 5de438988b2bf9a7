#include "vf_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void vf_reader_from_memory(vf_reader_t *r, const char *data, size_t len) {
  memset(r, 0, sizeof *r);
  r->fd = -1;
  r->mem = data;
  r->mem_len = len;
}

int vf_reader_from_fd(vf_reader_t *r, int fd) {
  memset(r, 0, sizeof *r);
  r->fd = fd;
  r->buf = malloc(VF_READER_BUFFER);
  return r->buf ? 0 : -ENOMEM;
}

void vf_reader_release(vf_reader_t *r) {
  free(r->buf);
  r->buf = NULL;
}

static int next_from_memory(vf_reader_t *r, const char **line, size_t *len) {
  if (r->pos >= r->mem_len) return VF_READ_EOF;
  const char *p = r->mem + r->pos;
  size_t left = r->mem_len - r->pos;
  const char *nl = memchr(p, '\n', left);
  size_t n = nl ? (size_t)(nl - p) : left;
  r->pos += nl ? n + 1 : n;
  r->bytes = r->pos;
  r->line_no++;
  *line = p;
  *len = n;
  return n > VF_READER_MAX_LINE ? VF_READ_TOO_LONG : VF_READ_LINE;
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

static int next_from_fd(vf_reader_t *r, const char **line, size_t *len) {
  size_t scanned = r->start;
  int too_long = 0;
  for (;;) {
    const char *nl = memchr(r->buf + scanned, '\n', r->end - scanned);
    if (nl) {
      size_t n = (size_t)(nl - (r->buf + r->start));
      *line = r->buf + r->start;
      *len = n;
      r->start += n + 1;
      r->bytes += n + 1;
      r->line_no++;
      return too_long || n > VF_READER_MAX_LINE ? VF_READ_TOO_LONG : VF_READ_LINE;
    }
    if (r->eof) {
      if (r->start == r->end) return VF_READ_EOF;
      size_t n = r->end - r->start;
      *line = r->buf + r->start;
      *len = n;
      r->start = r->end;
      r->bytes += n;
      r->line_no++;
      return too_long || n > VF_READER_MAX_LINE ? VF_READ_TOO_LONG : VF_READ_LINE;
    }
    if (r->end - r->start >= VF_READER_BUFFER) {
      /* The line outgrew the buffer: drop what we have and keep skipping to its end. */
      r->bytes += r->end - r->start;
      r->start = r->end = 0;
      too_long = 1;
    }
    size_t keep = r->end - r->start;
    ssize_t got = refill(r);
    if (got < 0) return (int)got;
    scanned = r->start + keep;
  }
}

int vf_reader_next(vf_reader_t *r, const char **line, size_t *len) {
  return r->fd < 0 ? next_from_memory(r, line, len) : next_from_fd(r, line, len);
}
