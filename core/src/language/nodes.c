#include "language_internal.h"

#include <stdio.h>
#include <string.h>

#include "suggest.h"
#include "units.h"

const rigor__node_t *rigor__get(const rigor__node_t *map, const char *key) {
  if (!map || map->kind != RIGOR__MAP) return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->keys[i]->text, key) == 0) return map->items[i];
  return NULL;
}

bool rigor__is_null(const rigor__node_t *n) {
  return n && n->kind == RIGOR__SCALAR && n->plain &&
         (n->text[0] == '\0' || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
          strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0);
}

const char *rigor__kind_name(const rigor__node_t *n) {
  if (rigor__is_null(n)) return "null";
  return n->kind == RIGOR__MAP ? "mapping" : n->kind == RIGOR__SEQ ? "list" : "scalar";
}

int rigor__expect(rigor__cfg_t *c, const rigor__node_t *n, rigor__kind_t kind, const char *what) {
  if (n->kind == kind && !(kind == RIGOR__SCALAR && rigor__is_null(n))) return 0;
  static const char *const names[] = {"a scalar", "a mapping", "a list"};
  return rigor__fail(c, n, "%s must be %s, not a %s", what, names[kind], rigor__kind_name(n));
}

int rigor__check_keys(rigor__cfg_t *c, const rigor__node_t *map, const char *const *allowed,
                      const char *where) {
  size_t n_allowed = 0;
  while (allowed[n_allowed])
    n_allowed++;
  for (size_t i = 0; i < map->n; i++) {
    const char *key = map->keys[i]->text;
    bool ok = false;
    for (size_t j = 0; j < n_allowed && !ok; j++)
      ok = strcmp(key, allowed[j]) == 0;
    if (ok) continue;
    const char *near = rigor_closest(key, allowed, n_allowed);
    if (near)
      return rigor__fail(c, map->keys[i], "unknown key '%s' in %s (did you mean '%s'?)", key, where,
                         near);
    return rigor__fail(c, map->keys[i], "unknown key '%s' in %s", key, where);
  }
  return 0;
}

rigor__node_t *rigor__scalar_like(rigor__cfg_t *c, const rigor__node_t *at, const char *text) {
  rigor__node_t *n = rigor__alloc(c, sizeof *n);
  if (!n) return NULL;
  *n = (rigor__node_t){.kind = RIGOR__SCALAR, .src = at->src, .line = at->line, .col = at->col};
  n->text = rigor__strdup(c, text);
  return n->text ? n : NULL;
}

rigor__node_t *rigor__map_without(rigor__cfg_t *c, const rigor__node_t *map, const char *key) {
  rigor__node_t *n = rigor__alloc(c, sizeof *n);
  if (!n) return NULL;
  *n = *map;
  n->n = 0;
  n->keys = rigor__alloc(c, (map->n + 1) * sizeof *n->keys);
  n->items = rigor__alloc(c, (map->n + 1) * sizeof *n->items);
  if (!n->keys || !n->items) return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->keys[i]->text, key) != 0) {
      n->keys[n->n] = map->keys[i];
      n->items[n->n++] = map->items[i];
    }
  return n;
}

json_t *rigor__node_json(const rigor__node_t *n) {
  if (n->kind == RIGOR__SCALAR) return rigor__is_null(n) ? json_null() : json_string(n->text);
  json_t *out = n->kind == RIGOR__SEQ ? json_array() : json_object();
  for (size_t i = 0; out && i < n->n; i++) {
    json_t *item = rigor__node_json(n->items[i]);
    int rc = !item                   ? -1
             : n->kind == RIGOR__SEQ ? json_array_append_new(out, item)
                                     : json_object_set_new(out, n->keys[i]->text, item);
    if (rc) {
      json_decref(out);
      return NULL;
    }
  }
  return out;
}

static int scalar_or_fail(rigor__cfg_t *c, const rigor__node_t *n, const char *what) {
  return rigor__expect(c, n, RIGOR__SCALAR, what);
}

int rigor__get_uint(rigor__cfg_t *c, const rigor__node_t *n, const char *what, uint64_t min,
                    uint64_t max, uint64_t *out) {
  char msg[256];
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_uint(n->text, out, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  if (*out < min || *out > max)
    return rigor__fail(c, n, "%s must be from %llu to %llu, not %s", what, (unsigned long long)min,
                       (unsigned long long)max, n->text);
  return 0;
}

int rigor__get_bool(rigor__cfg_t *c, const rigor__node_t *n, const char *what, bool *out) {
  char msg[256];
  int v = 0;
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_bool(n->text, &v, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  *out = v != 0;
  return 0;
}

int rigor__get_duration(rigor__cfg_t *c, const rigor__node_t *n, const char *what, double *out) {
  char msg[256];
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_duration(n->text, out, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  if (!(*out > 0)) return rigor__fail(c, n, "%s must be longer than zero", what);
  return 0;
}

int rigor__get_percent(rigor__cfg_t *c, const rigor__node_t *n, const char *what, double min,
                       double max, double *out) {
  char msg[256];
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_percent(n->text, out, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  if (*out < min || *out > max)
    return rigor__fail(c, n, "%s must be from %g%% to %g%%, not %s", what, min * 100, max * 100,
                       n->text);
  return 0;
}

int rigor__get_string(rigor__cfg_t *c, const rigor__node_t *n, const char *what, const char **out) {
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (n->text[0] == '\0') return rigor__fail(c, n, "%s must not be empty", what);
  *out = n->text;
  return 0;
}

int rigor__get_enum(rigor__cfg_t *c, const rigor__node_t *n, const char *what,
                    const char *const *names, int *out) {
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  size_t count = 0;
  char list[256] = "";
  for (; names[count]; count++) {
    if (strcmp(names[count], n->text) == 0) return *out = (int)count, 0;
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%s", count ? ", " : "", names[count]);
  }
  const char *near = rigor_closest(n->text, names, count);
  if (near)
    return rigor__fail(c, n, "%s: '%s' is not one of %s (did you mean '%s'?)", what, n->text, list,
                       near);
  return rigor__fail(c, n, "%s: '%s' is not one of %s", what, n->text, list);
}
