#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compat.h"
#include "trust.h"
#include "language_internal.h"

/* One level of the build axis before it is checked: where it was given, for the messages. */
typedef struct level {
  const char *label;
  const char *dir;         /* as written */
  const char *base;        /* the folder `dir` is relative to, NULL for the current one */
  const rigor__node_t *at; /* the YAML entry, or NULL for --build */
} level_t;

#define MAX_CONFIG_DIRS 64

/* A folder a config file chose is code the file would have rigor load: it is held to extends'
 * rule (inside the folder of the file that names it, or of a config-path folder, unless
 * --allow-external-extends) and, when that file is a shared base, to the trust rule (trust.h),
 * before anything in it is loaded. --build is the user's own choice and is not held to it. */
static int check_chosen_folder(rigor__cfg_t *c, const level_t *l, const char *real) {
  const rigor__source_t *src = l->at->src;
  char *from = src->real ? strdup(src->real) : NULL;
  char *slash = from ? strrchr(from, '/') : NULL;
  if (slash) *(slash == from ? slash + 1 : slash) = '\0';
  bool within = !from || rigor__path_within(from, real);
  free(from);
  const char *dirs[MAX_CONFIG_DIRS];
  size_t nd = rigor__config_path(c, dirs, MAX_CONFIG_DIRS);
  for (size_t i = 0; i < nd && !within; i++) {
    char dir[PATH_MAX];
    within = realpath(dirs[i], dir) && rigor__path_within(dir, real);
  }
  if (!within && !c->opts->allow_external_extends)
    return rigor__fail(c, l->at,
                       "build '%s': plugin_path '%s' (%s) is outside the folder of '%s': a config "
                       "may only load plugins from its own folder or the config path, as for "
                       "extends (give the build with --build %s=DIR, or pass "
                       "--allow-external-extends)",
                       l->label, l->dir, real, src->path, l->label);
  rigor_distrust_t bad;
  if (src->shared && rigor_trust_check(real, &bad) != 0)
    return rigor__fail(c, l->at,
                       "build '%s': plugin_path '%s' of the shared base '%s' is refused: %s%s %s, "
                       "so someone else could change what it loads (fix its permissions)",
                       l->label, l->dir, src->path, strcmp(bad.path, real) ? "its path " : "",
                       bad.path, bad.why);
  return 0;
}

/* "--build LABEL=DIR: " or nothing (the YAML position says where). */
static const char *where(const level_t *l, char *buf, size_t len) {
  if (l->at) return "";
  snprintf(buf, len, "--build %.100s=%.400s: ", l->label, l->dir);
  return buf;
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

static int read_yaml_levels(rigor__cfg_t *c, const rigor__node_t *n, level_t **out, size_t *count) {
  static const char *const keys[] = {"label", "plugin_path", NULL};
  if (rigor__expect(c, n, RIGOR__SEQ, "matrix axis 'build'")) return RIGOR_ECONFIG;
  if (n->n == 0) return rigor__fail(c, n, "axis 'build' has no values");
  level_t *levels = rigor__alloc(c, n->n * sizeof *levels);
  if (!levels) return rigor__fail(c, n, "out of memory");
  for (size_t i = 0; i < n->n; i++) {
    const rigor__node_t *e = n->items[i], *label, *path;
    if (rigor__expect(c, e, RIGOR__MAP, "a build") || rigor__check_keys(c, e, keys, "a build"))
      return RIGOR_ECONFIG;
    if (!(label = rigor__get(e, "label")) || !(path = rigor__get(e, "plugin_path")))
      return rigor__fail(c, e, "a build needs a 'label' and a 'plugin_path' (a plugin folder)");
    levels[i].at = e;
    if (rigor__get_string(c, label, "build label", &levels[i].label) ||
        rigor__get_string(c, path, "plugin_path", &levels[i].dir))
      return RIGOR_ECONFIG;
    char *base = dir_of(e->src->path);
    levels[i].base = base ? rigor__strdup(c, base) : NULL;
    free(base);
    if (!levels[i].base) return rigor__fail(c, e, "out of memory");
  }
  *out = levels;
  *count = n->n;
  return 0;
}

static int read_cli_levels(rigor__cfg_t *c, level_t **out, size_t *count) {
  const rigor_config_opts_t *o = c->opts;
  level_t *levels = rigor__alloc(c, o->n_builds * sizeof *levels);
  if (!levels) return rigor__fail(c, NULL, "out of memory");
  for (size_t i = 0; i < o->n_builds; i++)
    levels[i] = (level_t){.label = o->builds[i].label, .dir = o->builds[i].dir};
  *out = levels;
  *count = o->n_builds;
  return 0;
}

/* The folder's canonical absolute path, and its plugin loaded from it alone. */
static int load_level(rigor__cfg_t *c, const level_t *l, const char *plugin, char *real,
                      rigor_loaded_t **loaded) {
  char path[PATH_MAX + 8], pre[640], msg[1400];
  const char *w = where(l, pre, sizeof pre);
  if (l->dir[0] == '/' || !l->base)
    snprintf(path, sizeof path, "%s", l->dir);
  else
    snprintf(path, sizeof path, "%s/%s", l->base, l->dir);
  struct stat st;
  if (!realpath(path, real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
    return rigor__fail(c, l->at, "%sbuild '%s': plugin_path '%s' is not a folder (looked for %s)",
                       w, l->label, l->dir, path);
  if (l->at && check_chosen_folder(c, l, real)) return RIGOR_ECONFIG;
  const char *dirs[] = {real, NULL};
  rigor_plugin_search_t search = {dirs, c->opts->search.allow_unsafe, true};
  if (rigor_plugin_load(plugin, &search, loaded, msg, sizeof msg) != 0)
    return rigor__fail(c, l->at, "%sbuild '%s': plugin '%s': %s", w, l->label, plugin, msg);
  rigor_loaded_t **grown =
      realloc(c->build_plugins, (c->n_build_plugins + 1) * sizeof *c->build_plugins);
  if (!grown) {
    rigor_plugin_unload(*loaded);
    return rigor__fail(c, l->at, "out of memory");
  }
  c->build_plugins = grown;
  c->build_plugins[c->n_build_plugins++] = *loaded;
  return 0;
}

int rigor__builds(rigor__cfg_t *c, const rigor__node_t *exp, const char *plugin,
                  rigor__axis_t *axis, const rigor_loaded_t **first) {
  memset(axis, 0, sizeof *axis);
  const rigor__node_t *matrix = rigor__get(exp, "matrix");
  const rigor__node_t *yaml = rigor__get(matrix, "build");
  level_t *levels = NULL;
  size_t n = 0;
  int rc = c->opts->n_builds ? read_cli_levels(c, &levels, &n)
           : yaml            ? read_yaml_levels(c, yaml, &levels, &n)
                             : 0;
  if (rc || n == 0) return rc;
  axis->key = "build";
  axis->section = "build";
  axis->field = NULL;
  axis->node = exp;
  for (size_t i = 0; yaml && i < matrix->n; i++)
    if (matrix->items[i] == yaml) axis->node = matrix->keys[i];
  axis->values = rigor__alloc(c, n * sizeof *axis->values);
  if (!axis->values) return rigor__fail(c, exp, "out of memory");
  const rigor_loaded_t *ref = NULL;
  for (size_t i = 0; i < n; i++) {
    const level_t *l = &levels[i];
    char pre[640], real[PATH_MAX];
    const char *w = where(l, pre, sizeof pre);
    for (size_t j = 0; j < i; j++)
      if (strcmp(levels[j].label, l->label) == 0)
        return rigor__fail(c, l->at, "%saxis 'build' uses the label '%s' twice", w, l->label);
    /* The label's rule first: it holds whatever the folder, which is checked when loaded. */
    json_t *value = json_pack("{s:s, s:s}", "label", l->label, "plugin_path", l->dir);
    char *label = rigor__strdup(c, l->label);
    if (!value || !label) return json_decref(value), rigor__fail(c, exp, "out of memory");
    axis->values[axis->n_values++] = (rigor__axis_value_t){value, label, true, l->at};
    if (rigor__label_check(c, axis, &axis->values[axis->n_values - 1], w)) return RIGOR_ECONFIG;
    rigor_loaded_t *loaded = NULL;
    if (load_level(c, l, plugin, real, &loaded)) return RIGOR_ECONFIG;
    json_object_set_new(value, "plugin_path", json_string(real));
    char what[512];
    if (ref && rigor_plugin_schema_diff(&ref->desc, &loaded->desc, what, sizeof what) != 0)
      return rigor__fail(c, l->at,
                         "%sbuild '%s' (%s) cannot share an experiment with build '%s' (%s): %s", w,
                         l->label, loaded->origin, levels[0].label, ref->origin, what);
    if (!ref) ref = loaded;
  }
  *first = ref;
  return 0;
}
