#include "html.h"

void rigor_html_escape(FILE *out, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<':
      fputs("&lt;", out);
      break;
    case '>':
      fputs("&gt;", out);
      break;
    case '&':
      fputs("&amp;", out);
      break;
    case '"':
      fputs("&quot;", out);
      break;
    default:
      fputc(*s, out);
    }
  }
}
