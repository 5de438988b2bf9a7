#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"

#include <sys/stat.h>

#define MAX_CHAIN 16

rigor__node_t *rigor__merge(rigor__cfg_t *c, const rigor__node_t *base, const rigor__node_t *over) {
  if (!base) return (rigor__node_t *)over;
  if (!over || base->kind != RIGOR__MAP || over->kind != RIGOR__MAP)
    return (rigor__node_t *)(over ? over : base);
  rigor__node_t *m = rigor__alloc(c, sizeof *m);
  if (!m) return NULL;
  *m = *over;
  m->n = 0;
  m->keys = rigor__alloc(c, (base->n + over->n + 1) * sizeof *m->keys);
  m->items = rigor__alloc(c, (base->n + over->n + 1) * sizeof *m->items);
  if (!m->keys || !m->items) return NULL;
  for (size_t i = 0; i < base->n; i++) {
    const rigor__node_t *o = rigor__get(over, base->keys[i]->text);
    m->keys[m->n] = base->keys[i];
    m->items[m->n] = o ? rigor__merge(c, base->items[i], o) : base->items[i];
    if (!m->items[m->n++]) return NULL;
  }
  for (size_t i = 0; i < over->n; i++)
    if (!rigor__get(base, over->keys[i]->text)) {
      m->keys[m->n] = over->keys[i];
      m->items[m->n++] = over->items[i];
    }
  return m;
}

typedef struct chain {
  const char *real[MAX_CHAIN];
  const char *shown[MAX_CHAIN];
  size_t n;
} chain_t;

static char *dir_of(const char *path) {
  char *copy = strdup(path);
  if (!copy) return NULL;
  char *slash = strrchr(copy, '/');
  if (!slash)
    strcpy(copy, ".");
  else if (slash == copy)
    slash[1] = '\0';
  else
    *slash = '\0';
  return copy;
}

static bool inside(const char *dir, const char *path) {
  size_t n = strlen(dir);
  if (n == 1 && dir[0] == '/') return true;
  return strncmp(dir, path, n) == 0 && path[n] == '/';
}

static int expand(rigor__cfg_t *c, const rigor__node_t *map, chain_t *chain, rigor__node_t **out);

static int load_base(rigor__cfg_t *c, const rigor__node_t *target, chain_t *chain,
                     rigor__node_t **out) {
  if (rigor__expect(c, target, RIGOR__SCALAR, "extends")) return RIGOR_ECONFIG;
  const char *name = target->text;
  const rigor__source_t *from = target->src;
  char *dir = dir_of(from->path);
  char path[PATH_MAX];
  if (!dir) return rigor__fail(c, target, "out of memory");
  snprintf(path, sizeof path, "%s/%s", name[0] == '/' ? "" : dir, name);
  free(dir);
  char *real = realpath(path, NULL);
  if (!real)
    return rigor__fail(c, target, "extends target '%s' not found (looked for '%s')", name, path);
  struct stat st;
  if (stat(real, &st) == 0 && !S_ISREG(st.st_mode)) {
    free(real);
    return rigor__fail(c, target, "extends target '%s' is %s, not a file", name,
                       S_ISDIR(st.st_mode) ? "a folder" : "not a regular file");
  }
  char *from_dir = from->real ? dir_of(from->real) : NULL;
  bool outside = from_dir && !inside(from_dir, real);
  free(from_dir);
  if (outside && !c->opts->allow_external_extends) {
    free(real);
    return rigor__fail(c, target,
                       "extends target '%s' is outside the folder of '%s' "
                       "(pass --allow-external-extends to allow it)",
                       name, from->path);
  }
  for (size_t i = 0; i < chain->n; i++)
    if (strcmp(chain->real[i], real) == 0) {
      char msg[1024] = "";
      for (size_t j = i; j < chain->n; j++) {
        size_t used = strlen(msg);
        snprintf(msg + used, sizeof msg - used, "%s -> ", chain->shown[j]);
      }
      size_t used = strlen(msg);
      snprintf(msg + used, sizeof msg - used, "%.512s", path);
      free(real);
      return rigor__fail(c, target, "extends cycle: %s", msg);
    }
  if (chain->n == MAX_CHAIN) {
    free(real);
    return rigor__fail(c, target, "extends chain is longer than %d files", MAX_CHAIN);
  }
  rigor__node_t *root = NULL;
  char *real_kept = rigor__strdup(c, real);
  free(real);
  if (!real_kept || rigor__load_file(c, path, target, &root)) return RIGOR_ECONFIG;
  chain->real[chain->n] = real_kept;
  chain->shown[chain->n] = c->sources->path;
  chain->n++;
  int rc = expand(c, root, chain, out);
  chain->n--;
  return rc;
}

static int expand(rigor__cfg_t *c, const rigor__node_t *map, chain_t *chain, rigor__node_t **out) {
  const rigor__node_t *target = rigor__get(map, "extends");
  if (!target) {
    *out = (rigor__node_t *)map;
    return 0;
  }
  rigor__node_t *base = NULL;
  if (load_base(c, target, chain, &base)) return RIGOR_ECONFIG;
  rigor__node_t *own = rigor__map_without(c, map, "extends");
  *out = own ? rigor__merge(c, base, own) : NULL;
  return *out ? 0 : rigor__fail(c, map, "out of memory");
}

int rigor__expand_extends(rigor__cfg_t *c, const rigor__node_t *map, rigor__node_t **out) {
  chain_t chain = {.n = 0};
  if (map->src->real) {
    chain.real[0] = map->src->real;
    chain.shown[0] = map->src->path;
    chain.n = 1;
  }
  return expand(c, map, &chain, out);
}
