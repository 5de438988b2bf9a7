#include "label_parts.h"

#include <stdio.h>
#include <string.h>

/* "-" is what a table prints for no value; in a label it is no part at all. */
static int present(const char *s) {
  return s && s[0] && strcmp(s, "-") != 0;
}

size_t rigor_label_join(char *buf, size_t len, const char *sep, const char *const *parts,
                        size_t n) {
  if (!len) return 0;
  buf[0] = '\0';
  size_t used = 0;
  for (size_t i = 0; i < n && used < len; i++) {
    if (!present(parts[i])) continue;
    int k = snprintf(buf + used, len - used, "%s%s", used ? sep : "", parts[i]);
    if (k < 0) break;
    used = (size_t)k < len - used ? used + (size_t)k : len - 1;
  }
  return used;
}
