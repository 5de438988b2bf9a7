/* Finding and loading plugins by name. */
#ifndef RIGOR_LOADER_H
#define RIGOR_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "rigor/plugin.h"

typedef struct rigor_loaded {
  rigor_plugin_t desc; /* zero-extended copy: fields the plugin lacks read as NULL/0 */
  void *handle;
  char *origin;   /* the file found on the search path: what messages and records name */
  char *path;     /* the file mapped: `origin`, or its copy while a snapshot is open (snapshot.h) */
  char *dir;      /* the folder of `path`, where a run started as a new program finds it again */
  char *shadowed; /* a file of the same name that a later search folder also holds, or NULL */
} rigor_loaded_t;

typedef struct rigor_plugin_search {
  const char *const *extra_dirs; /* --plugin-path folders, NULL-terminated, searched first */
  bool allow_unsafe;             /* --allow-unsafe-plugin-path */
  /* Only extra_dirs: a build's folder, or the folder the parent resolved for a run's process. */
  bool exclusive;
} rigor_plugin_search_t;

/* Search order: --plugin-path, RIGOR_PLUGIN_PATH (colon-separated), the folder relative to the
 * rigor executable (../lib/rigor/plugins: the install prefix's, or the build tree's); only the
 * first with `exclusive`. The name must
 * not contain '/' or "..". The first folder that holds NAME.so wins, as on PATH (a later one is
 * noted in `shadowed`). Refuses wrong abi_major, too-small size, missing required callbacks and
 * unsafe paths, with a message naming the file and what is wrong. */
int rigor_plugin_load(const char *name, const rigor_plugin_search_t *search, rigor_loaded_t **out,
                      char *err, size_t errlen);
void rigor_plugin_unload(rigor_loaded_t *p);

/* Every plugin found on the search path (for `rigor plugins`); *n receives the count. Files that
 * fail to load are reported through `warn` (may be NULL). */
typedef void (*rigor_plugin_warn_fn)(void *arg, const char *message);
int rigor_plugin_list(const rigor_plugin_search_t *search, rigor_loaded_t ***out, size_t *n,
                      rigor_plugin_warn_fn warn, void *warn_arg);
/* Validates a descriptor copied from a file: abi, size, required callbacks, schema sanity. */
int rigor_plugin_check(const rigor_plugin_t *raw, const char *file, rigor_plugin_t *out, char *err,
                       size_t errlen);

#endif
