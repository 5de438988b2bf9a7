#include "language_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "suggest.h"

typedef struct matrix {
  rigor__axis_t *axes;
  bool *borrowed; /* the build axis belongs to the experiment */
  size_t n_axes;
  int *group; /* group index of each axis */
  size_t n_groups;
  size_t *group_len;
  size_t *group_first; /* first axis of each group, in declaration order */
  size_t (*excl)[2];   /* (axis, value) pairs */
  size_t *excl_start;  /* entry e covers excl[excl_start[e] .. excl_start[e+1]) */
  size_t n_excl;
} matrix_t;

static int axis_index(rigor__cfg_t *c, const matrix_t *m, const rigor__node_t *name,
                      const char *where, size_t *out) {
  if (rigor__expect(c, name, RIGOR__SCALAR, where)) return RIGOR_ECONFIG;
  const char *keys[512];
  size_t n = 0;
  for (size_t i = 0; i < m->n_axes; i++) {
    if (strcmp(m->axes[i].key, name->text) == 0) return *out = i, 0;
    if (n < 511) keys[n++] = m->axes[i].key;
  }
  keys[n] = NULL;
  const char *near = rigor_closest(name->text, keys, n);
  if (near)
    return rigor__fail(c, name,
                       "%s names '%s', which is no axis of this matrix (did you mean "
                       "'%s'?)",
                       where, name->text, near);
  return rigor__fail(c, name, "%s names '%s', which is no axis of this matrix", where, name->text);
}

static int parse_zip(rigor__cfg_t *c, matrix_t *m, const rigor__node_t *zip, json_t *canon) {
  if (rigor__expect(c, zip, RIGOR__SEQ, "matrix zip")) return RIGOR_ECONFIG;
  for (size_t g = 0; g < zip->n; g++) {
    const rigor__node_t *set = zip->items[g];
    if (rigor__expect(c, set, RIGOR__SEQ, "a zip entry")) return RIGOR_ECONFIG;
    if (set->n < 2) return rigor__fail(c, set, "a zip entry pairs at least two axes");
    json_t *names = json_array();
    json_array_append_new(canon, names);
    size_t first = SIZE_MAX;
    for (size_t k = 0; k < set->n; k++) {
      size_t ai;
      if (axis_index(c, m, set->items[k], "zip", &ai)) return RIGOR_ECONFIG;
      if (m->group[ai] >= 0)
        return rigor__fail(c, set->items[k], "axis '%s' is zipped twice", m->axes[ai].key);
      if (first == SIZE_MAX)
        first = ai;
      else if (m->axes[ai].n_values != m->axes[first].n_values)
        return rigor__fail(
            c, set->items[k], "zipped axes need equal lengths: '%s' has %zu values, '%s' has %zu",
            m->axes[first].key, m->axes[first].n_values, m->axes[ai].key, m->axes[ai].n_values);
      m->group[ai] = (int)(m->n_axes + g); /* provisional id, renumbered below */
      json_array_append_new(names, json_string(m->axes[ai].key));
    }
  }
  return 0;
}

static int parse_exclude(rigor__cfg_t *c, const rigor_plugin_t *d, matrix_t *m,
                         const rigor__node_t *ex, json_t *canon) {
  if (rigor__expect(c, ex, RIGOR__SEQ, "matrix exclude")) return RIGOR_ECONFIG;
  size_t total = 0;
  for (size_t e = 0; e < ex->n; e++) {
    if (rigor__expect(c, ex->items[e], RIGOR__MAP, "an exclude entry")) return RIGOR_ECONFIG;
    if (ex->items[e]->n == 0)
      return rigor__fail(c, ex->items[e], "an exclude entry needs at least one axis");
    total += ex->items[e]->n;
  }
  m->excl = rigor__alloc(c, (total + 1) * sizeof *m->excl);
  m->excl_start = rigor__alloc(c, (ex->n + 1) * sizeof *m->excl_start);
  if (!m->excl || !m->excl_start) return rigor__fail(c, ex, "out of memory");
  size_t k = 0;
  for (size_t e = 0; e < ex->n; e++) {
    const rigor__node_t *entry = ex->items[e];
    json_t *cell = json_object();
    json_array_append_new(canon, cell);
    m->excl_start[e] = k;
    for (size_t i = 0; i < entry->n; i++) {
      size_t ai = 0, vi = 0;
      if (axis_index(c, m, entry->keys[i], "exclude", &ai) ||
          rigor__axis_find(c, d, &m->axes[ai], entry->items[i], &vi))
        return RIGOR_ECONFIG;
      m->excl[k][0] = ai;
      m->excl[k][1] = vi;
      k++;
      json_object_set_new(cell, m->axes[ai].key, json_string(m->axes[ai].values[vi].label));
    }
  }
  m->excl_start[ex->n] = k;
  m->n_excl = ex->n;
  return 0;
}

static bool excluded(const matrix_t *m, const size_t *value_of_axis) {
  for (size_t e = 0; e < m->n_excl; e++) {
    bool all = true;
    for (size_t k = m->excl_start[e]; k < m->excl_start[e + 1] && all; k++)
      all = value_of_axis[m->excl[k][0]] == m->excl[k][1];
    if (all) return true;
  }
  return false;
}

static char *variant_label(const matrix_t *m, const size_t *v) {
  size_t len = 1;
  for (size_t i = 0; i < m->n_axes; i++)
    len += strlen(m->axes[i].key) + strlen(m->axes[i].values[v[i]].label) + 3;
  char *out = malloc(len < 8 ? 8 : len);
  if (!out) return NULL;
  if (m->n_axes == 0) return strcpy(out, "default");
  size_t used = 0;
  for (size_t i = 0; i < m->n_axes; i++)
    used += (size_t)sprintf(out + used, "%s%s" RIGOR__LABEL_VALUE_SEP "%s",
                            i ? RIGOR__LABEL_AXIS_SEP : "", rigor__label_key(&m->axes[i]),
                            m->axes[i].values[v[i]].label);
  return out;
}

/* Variants share every unchanged part of the base settings (jansson reference counts): the
 * settings are read-only once loaded, and copying them whole made large matrices slow. */
static int make_variant(const matrix_t *m, const size_t *v, const json_t *settings,
                        rigor_variant_t *out, char *err, size_t errlen) {
  snprintf(err, errlen, "out of memory");
  out->label = variant_label(m, v);
  out->axes = json_object();
  out->settings = json_copy((json_t *)settings);
  if (!out->label || !out->axes || !out->settings) return RIGOR_ENOMEM;
  const char *copied[4] = {NULL};
  size_t n_copied = 0;
  for (size_t i = 0; i < m->n_axes; i++) {
    const rigor__axis_t *axis = &m->axes[i];
    const rigor__axis_value_t *val = &axis->values[v[i]];
    json_object_set_new(out->axes, axis->key,
                        val->labelled ? json_string(val->label) : json_incref(val->value));
    if (!axis->field) {
      json_object_set(out->settings, axis->section, val->value);
      continue;
    }
    bool own = false;
    for (size_t k = 0; k < n_copied && !own; k++)
      own = strcmp(copied[k], axis->section) == 0;
    if (!own) {
      json_t *section = json_copy(json_object_get(out->settings, axis->section));
      if (!section || json_object_set_new(out->settings, axis->section, section) != 0)
        return RIGOR_ENOMEM;
      if (n_copied < 4) copied[n_copied++] = axis->section;
    }
    json_t *section = json_object_get(out->settings, axis->section);
    if (axis->member) {
      /* A member of a JSON param: a copy of its object, since variants share the original. */
      json_t *old = json_object_get(section, axis->field);
      json_t *obj = json_is_object(old) ? json_copy(old) : json_object();
      if (!obj || json_object_set(obj, axis->member, val->value) != 0 ||
          json_object_set_new(section, axis->field, obj) != 0)
        return RIGOR_ENOMEM;
    } else {
      json_object_set(section, axis->field, val->value);
    }
  }
  /* The fields converted the values; a refusal here is the language's own fault. */
  int rc =
      rigor_timing_from_json(json_object_get(out->settings, "timing"), &out->timing, err, errlen);
  if (!rc)
    rc = rigor_environment_from_json(json_object_get(out->settings, "environment"),
                                     &out->environment, err, errlen);
  return rc;
}

static int build_variants(rigor__cfg_t *c, const rigor__node_t *at, matrix_t *m,
                          const json_t *settings, rigor_experiment_t *e) {
  uint64_t cells = 1;
  for (size_t g = 0; g < m->n_groups; g++) {
    cells *= m->group_len[g];
    if (cells > RIGOR_MAX_VARIANTS) break;
  }
  if (cells > RIGOR_MAX_VARIANTS)
    return rigor__fail(c, at,
                       "the matrix has more than %d variants; split it into several experiments "
                       "or pair axes with zip",
                       RIGOR_MAX_VARIANTS);
  e->variants = calloc(cells, sizeof *e->variants);
  size_t *gi = calloc(m->n_groups + 1, sizeof *gi), *v = calloc(m->n_axes + 1, sizeof *v);
  if (!e->variants || !gi || !v) {
    free(gi), free(v);
    return rigor__fail(c, at, "out of memory");
  }
  int rc = 0;
  for (uint64_t k = 0; k < cells && rc == 0; k++) {
    uint64_t rest = k;
    for (size_t g = m->n_groups; g-- > 0;) {
      gi[g] = rest % m->group_len[g];
      rest /= m->group_len[g];
    }
    for (size_t i = 0; i < m->n_axes; i++)
      v[i] = gi[m->group[i]];
    if (excluded(m, v)) continue;
    char err[256];
    if (make_variant(m, v, settings, &e->variants[e->n_variants++], err, sizeof err))
      rc = rigor__fail(c, at, "%s", err);
  }
  free(gi), free(v);
  if (rc == 0 && e->n_variants == 0)
    rc = rigor__fail(c, at, "exclude removes every variant of the matrix");
  return rc;
}

/* The build axis as one of the matrix's, borrowed: the matrix does not release it. */
static void add_builds(matrix_t *m, const rigor__axis_t *builds) {
  m->axes[m->n_axes] = *builds;
  m->borrowed[m->n_axes] = true;
  m->group[m->n_axes++] = -1;
}

int rigor__matrix(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                  const json_t *settings, const json_t *sweep, const rigor__axis_t *builds,
                  rigor_experiment_t *e, json_t **canonical) {
  matrix_t m = {0};
  const rigor__node_t *zip = NULL, *ex = NULL;
  *canonical = json_null();
  bool has_map = n && !rigor__is_null(n);
  if (has_map && rigor__expect(c, n, RIGOR__MAP, "matrix")) return RIGOR_ECONFIG;
  if (has_map || builds->n_values) {
    size_t cap = (has_map ? n->n : 0) + 2;
    m.axes = rigor__alloc(c, cap * sizeof *m.axes);
    m.borrowed = rigor__alloc(c, cap * sizeof *m.borrowed);
    m.group = rigor__alloc(c, cap * sizeof *m.group);
    m.group_len = rigor__alloc(c, cap * sizeof *m.group_len);
    m.group_first = rigor__alloc(c, cap * sizeof *m.group_first);
    if (!m.axes || !m.borrowed || !m.group || !m.group_len || !m.group_first)
      return rigor__fail(c, n, "out of memory");
    memset(m.borrowed, 0, cap * sizeof *m.borrowed);
  }
  /* --build without a `build` axis in the file: the builds come first (outermost). */
  if (builds->n_values && !rigor__get(has_map ? n : NULL, "build")) add_builds(&m, builds);
  int rc = 0;
  for (size_t i = 0; has_map && i < n->n && rc == 0; i++) {
    const char *key = n->keys[i]->text;
    if (strcmp(key, "zip") == 0) {
      zip = n->items[i];
      continue;
    }
    if (strcmp(key, "exclude") == 0) {
      ex = n->items[i];
      continue;
    }
    if (strcmp(key, "build") == 0) {
      add_builds(&m, builds);
      continue;
    }
    rigor__axis_t *axis = &m.axes[m.n_axes];
    m.n_axes++;
    rc = rigor__axis_read(c, d, n->keys[i], n->items[i], true, axis);
    if (!rc) rc = rigor__axis_check_labels(c, axis);
    bool param = !rc && strcmp(axis->section, "params") == 0;
    for (size_t s = 0; param && !rc && s < json_array_size(sweep); s++) {
      const char *swept = json_string_value(json_object_get(json_array_get(sweep, s), "axis"));
      if (rigor__axes_overlap(swept, axis->key))
        rc = rigor__fail(c, n->keys[i], "param '%s' is both a sweep axis and a matrix axis",
                         axis->key);
    }
    for (size_t k = 0; param && !rc && k + 1 < m.n_axes; k++)
      if (strcmp(m.axes[k].section, "params") == 0 && rigor__axes_overlap(m.axes[k].key, axis->key))
        rc = rigor__fail(c, n->keys[i], "matrix axes '%s' and '%s' set the same param",
                         m.axes[k].key, axis->key);
    m.group[m.n_axes - 1] = -1;
  }
  json_t *canon_zip = json_array(), *canon_ex = json_array();
  if (!rc && zip) rc = parse_zip(c, &m, zip, canon_zip);
  if (!rc && ex) rc = parse_exclude(c, d, &m, ex, canon_ex);
  if (!rc) {
    /* Groups in declaration order of their first axis: the first axis is outermost. */
    for (size_t i = 0; i < m.n_axes; i++) {
      int old = m.group[i];
      if (old >= 0 && (size_t)old < m.n_groups) continue;
      size_t g = m.n_groups++;
      m.group_len[g] = m.axes[i].n_values;
      m.group_first[g] = i;
      for (size_t j = i; j < m.n_axes; j++)
        if (j == i || (old >= 0 && m.group[j] == old)) m.group[j] = (int)g;
    }
    rc = build_variants(c, has_map ? n : NULL, &m, settings, e);
  }
  if (!rc && m.n_axes > 0) {
    json_t *axes = json_array();
    for (size_t i = 0; i < m.n_axes; i++) {
      json_t *values = json_array();
      for (size_t k = 0; k < m.axes[i].n_values; k++)
        json_array_append_new(values, json_pack("{s:s, s:O}", "label", m.axes[i].values[k].label,
                                                "value", m.axes[i].values[k].value));
      json_array_append_new(axes, json_pack("{s:s, s:o}", "axis", m.axes[i].key, "values", values));
    }
    json_decref(*canonical);
    *canonical = json_pack("{s:o, s:O, s:O}", "axes", axes, "zip", canon_zip, "exclude", canon_ex);
  }
  json_decref(canon_zip), json_decref(canon_ex);
  for (size_t i = 0; i < m.n_axes; i++)
    if (!m.borrowed[i]) rigor__axis_release(&m.axes[i]);
  return rc;
}
