/* rigor plugin SDK: filling identity records. Header-only and optional; a plugin that includes it
 * still links nothing from the core.
 *
 *   int n = 0;
 *   n = rigor_kv_put(out, cap, n, "mylib.version", "%d.%d", major, minor);
 *   n = rigor_kv_put(out, cap, n, "mylib.device", "%s", name);
 *   return n;
 */
#ifndef RIGOR_PLUGIN_IDENTITY_H
#define RIGOR_PLUGIN_IDENTITY_H

#include <stdarg.h>
#include <stdio.h>

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes out[n] = {key, printf(fmt, ...)} and returns n + 1. Key and value are cut to their
 * fields' sizes and always NUL-terminated. From n >= cap on nothing is written and n comes back
 * unchanged, so a chain of calls returns at most cap. */
static inline int rigor_kv_put(rigor_kv_t *out, int cap, int n, const char *key, const char *fmt,
                               ...) RIGOR_PRINTF(5, 6);

static inline int rigor_kv_put(rigor_kv_t *out, int cap, int n, const char *key, const char *fmt,
                               ...) {
  if (!out || n < 0 || n >= cap) return n;
  snprintf(out[n].key, sizeof out[n].key, "%s", key ? key : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out[n].value, sizeof out[n].value, fmt, ap);
  va_end(ap);
  return n + 1;
}

#ifdef __cplusplus
}
#endif

#endif
