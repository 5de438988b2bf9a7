/* Which stores each kernel uses. `nt_stores` switches every storing kernel to non-temporal
 * stores. The copy alone has a third path: STREAM's own copy loop compiles to a memcpy call, so
 * by default the copy calls the C library's memcpy and takes whatever store path it takes on this
 * CPU for this size (glibc streams past the caches above its non-temporal threshold). */
#ifndef STREAM_STORES_H
#define STREAM_STORES_H

#include <stdbool.h>

typedef enum { STREAM_COPY_AUTO = 0, STREAM_COPY_PLAIN, STREAM_COPY_NT } stream_copy_stores_t;

/* The store path a kernel took; its value is the sample's `nt_stores` metric. */
typedef enum {
  STREAM_PATH_PLAIN = 0,  /* the plugin's loop with plain stores */
  STREAM_PATH_NT = 1,     /* the plugin's loop with non-temporal stores */
  STREAM_PATH_MEMCPY = 2, /* the C library's memcpy per thread, which chooses its own stores */
} stream_store_path_t;

/* The copy's path: `plain` and `nt` force theirs; `auto` is non-temporal with `nt_stores`
 * (STREAM's tuned variant), else memcpy as stream.c's copy. */
stream_store_path_t stream_copy_path(stream_copy_stores_t mode, bool nt_stores);

#endif
