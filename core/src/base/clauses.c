#include "clauses.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rigor_clause_append(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 2 >= len) return;
  if (used) strcpy(buf + used, "; "), used += 2;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}
