#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"

/* Sections whose settings belong to the whole process, so their levels cannot share one run. */
static const char *process_section(const char *axis) {
  const char *dot = strchr(axis, '.');
  return dot ? rigor__section_named(axis, (size_t)(dot - axis)) : NULL;
}

static const json_t *find_axis(rigor__cfg_t *c, const rigor__node_t *at, const char *axis,
                               const json_t *matrix) {
  const json_t *axes = json_object_get(matrix, "axes");
  const char *keys[512];
  size_t n = 0;
  size_t i;
  json_t *a;
  json_array_foreach(axes, i, a) {
    const char *key = json_string_value(json_object_get(a, "axis"));
    if (key && strcmp(key, axis) == 0) return a;
    if (key && n < 511) keys[n++] = key;
  }
  keys[n] = NULL;
  const char *near = rigor_closest(axis, keys, n);
  if (n == 0)
    rigor__fail(c, at,
                "order.interleave names '%s', but this experiment has no matrix: the arms are "
                "the levels of a matrix axis (a plugin param or 'build')",
                axis);
  else if (near)
    rigor__fail(c, at,
                "order.interleave names '%s', which is no axis of this matrix (did you mean "
                "'%s'?)",
                axis, near);
  else
    rigor__fail(c, at, "order.interleave names '%s', which is no axis of this matrix", axis);
  return NULL;
}

static bool zipped(const json_t *matrix, const char *axis) {
  size_t i, j;
  json_t *set, *name;
  json_array_foreach(json_object_get(matrix, "zip"), i, set) {
    json_array_foreach(set, j, name) {
      if (json_string_value(name) && strcmp(json_string_value(name), axis) == 0) return true;
    }
  }
  return false;
}

/* The level of `axis` a variant takes: its axes hold the level's label when it has one, else
 * its value. */
static long level_of(const json_t *values, const json_t *v) {
  size_t k;
  json_t *level;
  json_array_foreach(values, k, level) {
    if (json_equal(json_object_get(level, "value"), (json_t *)v)) return (long)k;
  }
  json_array_foreach(values, k, level) {
    const char *label = json_string_value(json_object_get(level, "label"));
    if (json_is_string(v) && label && strcmp(label, json_string_value(v)) == 0) return (long)k;
  }
  return -1;
}

/* Variants that differ only in `axis` share a cell: the key is their other axes, dumped. */
static char *cell_key(const json_t *axes, const char *axis) {
  json_t *rest = json_copy((json_t *)axes);
  if (!rest) return NULL;
  json_object_del(rest, axis);
  char *key = json_dumps(rest, JSON_SORT_KEYS | JSON_COMPACT);
  json_decref(rest);
  return key;
}

static int group_cells(rigor__cfg_t *c, const rigor__node_t *at, const char *axis,
                       const json_t *values, rigor_experiment_t *e) {
  rigor_interleave_t *il = &e->interleave;
  uint32_t k = (uint32_t)json_array_size(values);
  uint32_t most_cells = e->n_variants;
  il->arms = malloc((size_t)most_cells * k * sizeof *il->arms);
  json_t *cells = json_object();
  if (!il->arms || !cells) return json_decref(cells), rigor__fail(c, at, "out of memory");
  for (size_t i = 0; i < (size_t)most_cells * k; i++)
    il->arms[i] = UINT32_MAX;
  int rc = 0;
  for (uint32_t v = 0; v < e->n_variants && !rc; v++) {
    long level = level_of(values, json_object_get(e->variants[v].axes, axis));
    char *key = cell_key(e->variants[v].axes, axis);
    if (level < 0 || !key) {
      free(key);
      rc = rigor__fail(c, at, "order.interleave: cannot place variant '%s' among the arms",
                       e->variants[v].label);
      break;
    }
    json_t *at_cell = json_object_get(cells, key);
    uint32_t cell = at_cell ? (uint32_t)json_integer_value(at_cell) : il->n_cells;
    if (!at_cell) {
      if (cell >= most_cells) {
        free(key);
        rc = rigor__fail(c, at, "order.interleave: exclude leaves some cells without every arm");
        break;
      }
      json_object_set_new(cells, key, json_integer(cell));
      il->n_cells++;
    }
    free(key);
    il->arms[(size_t)cell * k + (size_t)level] = v;
  }
  json_decref(cells);
  /* Every run hosts every arm: an exclude may remove whole cells, never one arm of a cell. */
  for (uint32_t cell = 0; cell < il->n_cells && !rc; cell++)
    for (uint32_t a = 0; a < k && !rc; a++)
      if (il->arms[(size_t)cell * k + a] == UINT32_MAX) {
        uint32_t any = il->arms[(size_t)cell * k + (a == 0 ? 1 : 0)];
        const char *label = json_string_value(json_object_get(json_array_get(values, a), "label"));
        rc = rigor__fail(c, at,
                         "order.interleave: exclude removes level '%s' of axis '%s' from the cell "
                         "of variant '%s'; every run hosts every arm, so exclude whole cells only",
                         label ? label : "?", axis,
                         any != UINT32_MAX ? e->variants[any].label : "?");
      }
  il->n_arms = k;
  return rc;
}

int rigor__interleave(rigor__cfg_t *c, const rigor__node_t *at, const char *axis,
                      const json_t *matrix, rigor_experiment_t *e) {
  const json_t *a = find_axis(c, at, axis, matrix);
  if (!a) return RIGOR_ECONFIG;
  const char *section = process_section(axis);
  if (section)
    return rigor__fail(c, at,
                       "order.interleave: '%s' is a %s axis, which holds for the whole process; "
                       "only a plugin param or 'build' can run as arms inside one process",
                       axis, section);
  if (zipped(matrix, axis))
    return rigor__fail(c, at,
                       "order.interleave: axis '%s' is zipped with another, so its levels do not "
                       "form arms of one cell; interleave an axis outside zip",
                       axis);
  const json_t *values = json_object_get(a, "values");
  if (json_array_size(values) > RIGOR_MAX_ARMS)
    return rigor__fail(c, at,
                       "order.interleave: axis '%s' has %zu levels; one process hosts at most %d "
                       "arms",
                       axis, json_array_size(values), RIGOR_MAX_ARMS);
  if (json_array_size(values) < 2)
    return rigor__fail(c, at,
                       "order.interleave: axis '%s' has %zu level; interleaving needs at least two",
                       axis, json_array_size(values));
  for (uint32_t v = 0; v < e->n_variants; v++) {
    const json_t *settings = e->variants[v].settings;
    if (json_is_array(json_object_get(settings, "launcher")))
      return rigor__fail(c, at,
                         "order.interleave runs every arm in one process, which a launcher job "
                         "does not support yet; use order.interleave: none");
  }
  if (!(e->interleave.axis = strdup(axis))) return rigor__fail(c, at, "out of memory");
  return group_cells(c, at, axis, values, e);
}
