#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"
#include "trust.h"

#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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

bool rigor__path_within(const char *dir, const char *path) {
  return strcmp(dir, path) == 0 || inside(dir, path);
}

static int expand(rigor__cfg_t *c, const rigor__node_t *map, chain_t *chain, rigor__node_t **out);

/* `extends: NAME` or `extends: {file: NAME, sha256: HEX}`. */
static int read_target(rigor__cfg_t *c, const rigor__node_t *n, const rigor__node_t **file,
                       const rigor__node_t **pin) {
  static const char *const keys[] = {"file", "sha256", NULL};
  *file = n;
  *pin = NULL;
  if (n->kind == RIGOR__MAP) {
    if (rigor__check_keys(c, n, keys, "extends")) return RIGOR_ECONFIG;
    if (!(*file = rigor__get(n, "file")))
      return rigor__fail(c, n, "extends needs 'file', the base to merge under this file");
    if (rigor__expect(c, *file, RIGOR__SCALAR, "extends.file")) return RIGOR_ECONFIG;
    *pin = rigor__get(n, "sha256");
    if (*pin && ((*pin)->kind != RIGOR__SCALAR || !rigor__is_sha256((*pin)->text)))
      return rigor__fail(c, *pin,
                         "extends.sha256 must be 64 hexadecimal digits (what `rigor config "
                         "--base-hash %s` prints)",
                         (*file)->text);
    return 0;
  }
  if (n->kind != RIGOR__SCALAR || rigor__is_null(n))
    return rigor__fail(c, n, "extends must be a file name or {file: NAME, sha256: HASH}, not a %s",
                       rigor__kind_name(n));
  return 0;
}

size_t rigor__config_path(rigor__cfg_t *c, const char **dirs, size_t cap) {
  size_t n = 0;
  for (const char *const *d = c->opts->config_dirs; d && *d && n < cap; d++)
    dirs[n++] = *d;
  const char *env = getenv("RIGOR_CONFIG_PATH");
  char *copy = env && *env ? rigor__strdup(c, env) : NULL, *save = NULL;
  for (char *tok = copy ? strtok_r(copy, ":", &save) : NULL; tok && n < cap;
       tok = strtok_r(NULL, ":", &save))
    dirs[n++] = tok;
  return n;
}

/* A name the config path may answer: relative, without a ".." part. */
static bool searchable(const char *name) {
  if (name[0] == '/') return false;
  for (const char *p = name; (p = strstr(p, "..")); p += 2)
    if ((p == name || p[-1] == '/') && (p[2] == '\0' || p[2] == '/')) return false;
  return true;
}

#define MAX_CONFIG_DIRS 64

/* Finds a base: beside the including file first, then in each config-path folder. *real is the
 * found file's realpath (caller frees), *on_path says it came from the config path. */
static int find_base(rigor__cfg_t *c, const rigor__node_t *file, char *path, size_t cap,
                     char **real, bool *on_path) {
  const char *name = file->text;
  char *dir = dir_of(file->src->path);
  if (!dir) return rigor__fail(c, file, "out of memory");
  snprintf(path, cap, "%s/%s", name[0] == '/' ? "" : dir, name);
  free(dir);
  *on_path = false;
  const char *dirs[MAX_CONFIG_DIRS];
  size_t nd = searchable(name) ? rigor__config_path(c, dirs, MAX_CONFIG_DIRS) : 0;
  if ((*real = realpath(path, NULL))) {
    for (size_t i = 0; i < nd; i++) {
      char other[PATH_MAX];
      snprintf(other, sizeof other, "%s/%s", dirs[i], name);
      char other_real[PATH_MAX];
      /* The config path's file may be this very file, reached another way: no other to name. */
      if (realpath(other, other_real) && strcmp(other_real, *real) != 0) {
        rigor__warn(c, file, "extends takes '%s' from beside %s, not the config path's %s", name,
                    file->src->path, other);
        break;
      }
    }
    return 0;
  }
  char beside[PATH_MAX];
  snprintf(beside, sizeof beside, "%s", path);
  for (size_t i = 0; i < nd; i++) {
    snprintf(path, cap, "%s/%s", dirs[i], name);
    if ((*real = realpath(path, NULL))) return *on_path = true, 0;
  }
  if (nd == 0 && searchable(name))
    return rigor__fail(c, file,
                       "extends target '%s' not found (looked for '%s'; a shared base is found "
                       "through --config-path DIR or RIGOR_CONFIG_PATH)",
                       name, beside);
  if (nd == 0)
    return rigor__fail(c, file, "extends target '%s' not found (looked for '%s')", name, beside);
  char where[1024] = "";
  for (size_t i = 0; i < nd; i++) {
    size_t used = strlen(where);
    snprintf(where + used, sizeof where - used, "%s%s", i ? ", " : "", dirs[i]);
  }
  return rigor__fail(c, file,
                     "extends target '%s' not found (looked for '%s', then in the config path: %s)",
                     name, beside, where);
}

/* A base that others could change is no base to share (trust.h). */
static int check_trusted(rigor__cfg_t *c, const rigor__node_t *file, const char *path,
                         const char *real) {
  rigor_distrust_t bad;
  if (rigor_trust_check(real, &bad) == 0) return 0;
  return rigor__fail(c, file,
                     "extends target '%s' (%s) is refused: %s%s %s, so someone else could change "
                     "what it sets (fix its permissions)",
                     file->text, path, strcmp(bad.path, real) ? "its path " : "", bad.path,
                     bad.why);
}

/* The document as the language reads it, for its pin: `top` with its own extends resolved, then
 * `defaults:` and each entry of `experiments:` resolved on the same chain, so a cycle through them
 * is still caught. */
static int expand_document(rigor__cfg_t *c, const rigor__node_t *top, chain_t *chain,
                           rigor__node_t **out) {
  rigor__node_t *doc = rigor__alloc(c, sizeof *doc);
  rigor__node_t **items = rigor__alloc(c, (top->n + 1) * sizeof *items);
  if (!doc || !items) return rigor__fail(c, top, "out of memory");
  *doc = *top;
  memcpy(items, top->items, top->n * sizeof *items);
  doc->items = items;
  for (size_t i = 0; i < doc->n; i++) {
    const char *key = doc->keys[i]->text;
    const rigor__node_t *v = items[i];
    if (strcmp(key, "defaults") == 0 && v->kind == RIGOR__MAP) {
      if (expand(c, v, chain, &items[i])) return RIGOR_ECONFIG;
    } else if (strcmp(key, "experiments") == 0 && v->kind == RIGOR__SEQ) {
      rigor__node_t *list = rigor__alloc(c, sizeof *list);
      rigor__node_t **entries = rigor__alloc(c, (v->n + 1) * sizeof *entries);
      if (!list || !entries) return rigor__fail(c, v, "out of memory");
      *list = *v;
      list->items = entries;
      for (size_t k = 0; k < v->n; k++) {
        entries[k] = v->items[k];
        if (entries[k]->kind == RIGOR__MAP && expand(c, v->items[k], chain, &entries[k]))
          return RIGOR_ECONFIG;
      }
      items[i] = list;
    }
  }
  *out = doc;
  return 0;
}

static int pin_of(rigor__cfg_t *c, const rigor__node_t *top, chain_t *chain, char hex[65]) {
  rigor__node_t *doc = NULL;
  if (expand_document(c, top, chain, &doc)) return RIGOR_ECONFIG;
  return rigor__tree_sha256(doc, hex) == 0 ? 0 : rigor__fail(c, top, "out of memory");
}

static int check_pin(rigor__cfg_t *c, const rigor__node_t *file, const rigor__node_t *pin,
                     const char *path, const rigor__node_t *base, chain_t *chain) {
  char hex[65];
  if (pin_of(c, base, chain, hex)) return RIGOR_ECONFIG;
  if (strcasecmp(hex, pin->text) == 0) return 0;
  return rigor__fail(c, pin,
                     "extends target '%s' (%s) has sha256 %s, not the pinned one: the base "
                     "changed; review the change, then pin the new hash",
                     file->text, path, hex);
}

static int load_base(rigor__cfg_t *c, const rigor__node_t *target, chain_t *chain,
                     rigor__node_t **out) {
  const rigor__node_t *file = NULL, *pin = NULL;
  if (read_target(c, target, &file, &pin)) return RIGOR_ECONFIG;
  const char *name = file->text;
  const rigor__source_t *from = file->src;
  char path[PATH_MAX], *real = NULL;
  bool on_path = false;
  if (find_base(c, file, path, sizeof path, &real, &on_path)) return RIGOR_ECONFIG;
  struct stat st;
  if (stat(real, &st) == 0 && !S_ISREG(st.st_mode)) {
    free(real);
    return rigor__fail(c, file, "extends target '%s' is %s, not a file", name,
                       S_ISDIR(st.st_mode) ? "a folder" : "not a regular file");
  }
  char *from_dir = from->real ? dir_of(from->real) : NULL;
  bool outside = !on_path && from_dir && !inside(from_dir, real);
  free(from_dir);
  if (outside && !c->opts->allow_external_extends) {
    free(real);
    return rigor__fail(c, file,
                       "extends target '%s' is outside the folder of '%s' "
                       "(pass --allow-external-extends to allow it)",
                       name, from->path);
  }
  bool shared = on_path || from->shared;
  if (shared && check_trusted(c, file, path, real)) {
    free(real);
    return RIGOR_ECONFIG;
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
      return rigor__fail(c, file, "extends cycle: %s", msg);
    }
  if (chain->n == MAX_CHAIN) {
    free(real);
    return rigor__fail(c, file, "extends chain is longer than %d files", MAX_CHAIN);
  }
  rigor__node_t *root = NULL;
  char *real_kept = rigor__strdup(c, real);
  free(real);
  if (!real_kept || rigor__load_file(c, path, file, &root)) return RIGOR_ECONFIG;
  c->sources->shared = shared;
  chain->real[chain->n] = real_kept;
  chain->shown[chain->n] = c->sources->path;
  chain->n++;
  int rc = expand(c, root, chain, out);
  /* The pin covers what the base reaches, so it is taken with the base still on the chain. */
  if (!rc && pin) rc = check_pin(c, file, pin, path, *out, chain);
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

static chain_t chain_from(const rigor__node_t *map) {
  chain_t chain = {.n = 0};
  if (map->src->real) {
    chain.real[0] = map->src->real;
    chain.shown[0] = map->src->path;
    chain.n = 1;
  }
  return chain;
}

int rigor__expand_extends(rigor__cfg_t *c, const rigor__node_t *map, rigor__node_t **out) {
  chain_t chain = chain_from(map);
  return expand(c, map, &chain, out);
}

int rigor__base_hash(rigor__cfg_t *c, const rigor__node_t *root, char hex[65]) {
  chain_t chain = chain_from(root);
  rigor__node_t *top = NULL;
  return expand(c, root, &chain, &top) ? RIGOR_ECONFIG : pin_of(c, top, &chain, hex);
}
