#include "test_host.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_host_init(test_host_t *th) {
  rigor_test_host_init(th);
}

/* RTLD_NODELETE keeps the module mapped after dlclose, so sanitizer reports still name it. */
const rigor_plugin_t *test_plugin_open(const char *so_path, const char *name, void **handle) {
  *handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!*handle) {
    fprintf(stderr, "dlopen %s: %s\n", so_path, dlerror());
    abort();
  }
  rigor_plugin_get_fn get = (rigor_plugin_get_fn)dlsym(*handle, RIGOR_PLUGIN_GET_SYMBOL);
  if (!get) {
    fprintf(stderr, "%s: no %s\n", so_path, RIGOR_PLUGIN_GET_SYMBOL);
    abort();
  }
  for (uint32_t i = 0;; i++) {
    const rigor_plugin_t *d = get(i);
    if (!d) break;
    if (strcmp(d->name, name) == 0) return d;
  }
  fprintf(stderr, "%s: no plugin named %s\n", so_path, name);
  abort();
}
