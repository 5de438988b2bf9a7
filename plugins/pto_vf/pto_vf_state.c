#include "pto_vf_state.h"

#include <stdarg.h>
#include <stdio.h>

int pto_vf_set_invalid(pto_vf_state_t *st, const char *fmt, ...) {
  if (st->invalid[0] == '\0') {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->invalid, sizeof st->invalid, fmt, ap);
    va_end(ap);
  }
  return 0;
}
