#include "term_text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The escape for byte c (a control character), or NULL for a byte shown as it is. */
static const char *named(unsigned char c) {
  switch (c) {
  case '\n':
    return "\\n";
  case '\r':
    return "\\r";
  case '\t':
    return "\\t";
  default:
    return NULL;
  }
}

static bool is_c0(unsigned char c) {
  return c < 0x20 || c == 0x7f;
}

/* U+0080..U+009F in UTF-8: C2 80..C2 9F. */
static bool is_c1(const unsigned char *p) {
  return p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
}

/* Appends the escape of control character c (its code point) to out. */
static size_t escape(unsigned c, char *out, size_t room) {
  const char *name = c < 0x80 ? named((unsigned char)c) : NULL;
  char hex[8];
  if (!name) snprintf(hex, sizeof hex, "\\x%02x", c);
  const char *text = name ? name : hex;
  size_t n = strlen(text);
  if (n >= room) return 0;
  memcpy(out, text, n);
  return n;
}

const char *rigor_term_text(const char *s, char *out, size_t cap) {
  if (!cap) return out;
  size_t used = 0;
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  while (*p && used + 1 < cap) {
    if (is_c0(*p) || is_c1(p)) {
      unsigned c = is_c0(*p) ? *p : p[1];
      size_t n = escape(c, out + used, cap - used);
      if (!n) break;
      used += n;
      p += is_c0(*p) ? 1 : 2;
      continue;
    }
    out[used++] = (char)*p++;
  }
  out[used] = '\0';
  return out;
}

typedef struct guard {
  FILE *under;
  bool c2; /* the last byte was 0xC2, held back: a C1 character may follow */
} guard_t;

static ssize_t guard_write(void *cookie, const char *buf, size_t size) {
  guard_t *g = cookie;
  for (size_t i = 0; i < size; i++) {
    unsigned char c = (unsigned char)buf[i];
    if (g->c2) {
      g->c2 = false;
      if (c >= 0x80 && c <= 0x9F) {
        fprintf(g->under, "\\x%02x", c);
        continue;
      }
      fputc(0xC2, g->under);
    }
    if (c == 0xC2) {
      g->c2 = true;
    } else if (is_c0(c) && c != '\n') {
      char esc[8];
      size_t n = escape(c, esc, sizeof esc);
      fwrite(esc, 1, n, g->under);
    } else {
      fputc(c, g->under);
    }
  }
  return ferror(g->under) ? -1 : (ssize_t)size;
}

static int guard_close(void *cookie) {
  guard_t *g = cookie;
  if (g->c2) fputc(0xC2, g->under);
  int rc = fflush(g->under) == 0 && !ferror(g->under) ? 0 : EOF;
  free(g);
  return rc;
}

FILE *rigor_term_guard(FILE *under) {
  guard_t *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->under = under;
  cookie_io_functions_t io = {.write = guard_write, .close = guard_close};
  FILE *f = fopencookie(g, "w", io);
  if (!f) free(g);
  return f;
}
