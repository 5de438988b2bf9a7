#include "utf8.h"

#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no surrogates, at most
 * U+10FFFF), or 0. */
static size_t sequence_length(const unsigned char *s) {
  unsigned char c = s[0];
  if (c < 0x80) return 1;
  size_t n = c >= 0xC2 && c <= 0xDF   ? 2
             : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xF0 && c <= 0xF4 ? 4
                                      : 0;
  for (size_t i = 1; i < n; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  if (n == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F))) return 0;
  if (n == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))) return 0;
  return n;
}

char *rigor_utf8_sanitize(char *s) {
  unsigned char *p = (unsigned char *)s;
  while (p && *p) {
    size_t n = sequence_length(p);
    if (n == 0 || (n == 1 && *p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7F) {
      *p++ = '?';
      continue;
    }
    p += n;
  }
  return s;
}
