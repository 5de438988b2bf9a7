#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"
#include "params.h"
#include "units.h"

/* ---- one axis: its values from a list, a scalar, a labelled map or a range ---------------- */

typedef struct axis_ctx {
  rigor__cfg_t *c;
  const rigor_plugin_t *d;
  rigor__axis_t *axis;
  const rigor_param_t *param;  /* plugin param axes */
  const rigor__field_t *field; /* core field axes */
  bool labels_allowed;
  size_t cap;
} axis_ctx_t;

static int push_value(axis_ctx_t *a, const rigor__node_t *at, json_t *value, const char *label,
                      bool labelled) {
  rigor__axis_t *axis = a->axis;
  if (!axis->seen_values) axis->seen_values = json_object();
  if (!axis->seen_labels) axis->seen_labels = json_object();
  char *key = json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
  if (!key || !axis->seen_values || !axis->seen_labels) {
    free(key);
    json_decref(value);
    return rigor__fail(a->c, at, "out of memory");
  }
  bool dup_value = json_object_get(axis->seen_values, key) != NULL;
  bool dup_label = !dup_value && json_object_get(axis->seen_labels, label) != NULL;
  if (dup_value || dup_label) {
    free(key);
    json_decref(value);
    return rigor__fail(a->c, at,
                       dup_value ? "axis '%s' lists the value '%s' twice"
                                 : "axis '%s' uses the label '%s' twice",
                       axis->key, label);
  }
  json_object_set_new(axis->seen_values, key, json_true());
  json_object_set_new(axis->seen_labels, label, json_true());
  free(key);
  if (axis->n_values == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 8;
    rigor__axis_value_t *grown = rigor__alloc(a->c, cap * sizeof *grown);
    if (!grown) return json_decref(value), rigor__fail(a->c, at, "out of memory");
    if (axis->n_values) memcpy(grown, axis->values, axis->n_values * sizeof *grown);
    axis->values = grown;
    a->cap = cap;
  }
  char *kept = rigor__strdup(a->c, label);
  if (!kept) return json_decref(value), rigor__fail(a->c, at, "out of memory");
  axis->values[axis->n_values++] = (rigor__axis_value_t){value, kept, labelled};
  return 0;
}

/* Converts one value node; an enum alias expands to several values. */
static int convert_one(axis_ctx_t *a, const rigor__node_t *n, const char *label) {
  rigor__cfg_t *c = a->c;
  json_t *value = NULL;
  if (a->param) {
    if (rigor__expect(c, n, RIGOR__SCALAR, a->axis->key)) return RIGOR_ECONFIG;
    const char *expansion = label ? NULL : rigor_param_alias(a->param, n->text);
    if (expansion) {
      char *copy = rigor__strdup(c, expansion);
      for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
           tok = strtok_r(NULL, ",", &save)) {
        rigor__node_t *one = rigor__scalar_like(c, n, tok);
        if (!one || convert_one(a, one, NULL)) return RIGOR_ECONFIG;
      }
      return 0;
    }
    char msg[512];
    if (rigor_param_from_text(a->param, n->text, &value, msg, sizeof msg) != 0)
      return rigor__fail(c, n, "%s", msg);
    char *shown = label ? NULL : rigor_param_format(a->param, value);
    int rc = push_value(a, n, value, label ? label : shown, label != NULL);
    free(shown);
    return rc;
  }
  if (a->field->convert(c, n, a->axis->key, &value)) return RIGOR_ECONFIG;
  if (label || a->field->keeps_label) {
    const char *l = label ? label : json_string_value(json_object_get(value, "label"));
    return push_value(a, n, value, l, label != NULL);
  }
  if (n->kind == RIGOR__SCALAR)
    return push_value(a, n, value, rigor__is_null(n) ? "none" : n->text, false);
  char *shown = json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
  int rc = push_value(a, n, value, shown ? shown : "?", false);
  free(shown);
  return rc;
}

static int convert_item(axis_ctx_t *a, const rigor__node_t *n) {
  rigor__cfg_t *c = a->c;
  const rigor__node_t *label = n->kind == RIGOR__MAP ? rigor__get(n, "label") : NULL;
  if (!label) return convert_one(a, n, NULL);
  if (!a->labels_allowed)
    return rigor__fail(c, n, "sweep values are plain values; labels belong to matrix axes");
  const char *text = NULL;
  if (rigor__get_string(c, label, "label", &text)) return RIGOR_ECONFIG;
  if (a->field && a->field->keeps_label) return convert_one(a, n, text);
  if (a->field && a->field->object) {
    rigor__node_t *rest = rigor__map_without(c, n, "label");
    return rest ? convert_one(a, rest, text) : rigor__fail(c, n, "out of memory");
  }
  static const char *const keys[] = {"label", "value", NULL};
  if (rigor__check_keys(c, n, keys, "a labelled value")) return RIGOR_ECONFIG;
  const rigor__node_t *value = rigor__get(n, "value");
  if (!value)
    return rigor__fail(c, n, "labelled value '%s' of axis '%s' needs 'value'", text, a->axis->key);
  return convert_one(a, value, text);
}

static bool axis_is_numeric(const axis_ctx_t *a, bool *real, bool *size) {
  *real = a->param && a->param->type == RIGOR_PARAM_DOUBLE;
  *size = a->param && a->param->type == RIGOR_PARAM_SIZE;
  if (a->param)
    return a->param->type == RIGOR_PARAM_INT || a->param->type == RIGOR_PARAM_UINT || *size ||
           *real;
  return a->field->numeric;
}

static int range_number(axis_ctx_t *a, const rigor__node_t *n, const char *what, bool real,
                        bool size, bool is_step, double *d, int64_t *i) {
  char msg[256];
  if (rigor__expect(a->c, n, RIGOR__SCALAR, what)) return RIGOR_ECONFIG;
  int rc;
  if (real) {
    rc = rigor_parse_double(n->text, d, msg, sizeof msg);
  } else {
    uint64_t u = 0;
    rc = (size && is_step) ? rigor_parse_size(n->text, &u, msg, sizeof msg)
                           : rigor_parse_uint(n->text, &u, msg, sizeof msg);
    if (!rc && u > INT64_MAX) rc = -1, snprintf(msg, sizeof msg, "'%s' is too large", n->text);
    *i = (int64_t)u;
  }
  return rc ? rigor__fail(a->c, n, "%s: %s", what, msg) : 0;
}

/* {from, to, factor} or {from, to, step}, as nccl-tests' -b/-e/-f/-i. */
static int expand_range(axis_ctx_t *a, const rigor__node_t *n) {
  rigor__cfg_t *c = a->c;
  static const char *const keys[] = {"from", "to", "factor", "step", NULL};
  bool real, size;
  if (rigor__check_keys(c, n, keys, "a range")) return RIGOR_ECONFIG;
  if (!axis_is_numeric(a, &real, &size))
    return rigor__fail(c, n, "axis '%s' is not numeric, so it cannot take a range", a->axis->key);
  const rigor__node_t *from = rigor__get(n, "from"), *to = rigor__get(n, "to"),
                      *factor = rigor__get(n, "factor"), *step = rigor__get(n, "step");
  if (!from || !to) return rigor__fail(c, n, "a range needs 'from' and 'to'");
  if (!factor == !step) return rigor__fail(c, n, "a range needs exactly one of 'factor' or 'step'");
  /* Bounds go through the axis converter, so they are checked and normalised like values. */
  size_t before = a->axis->n_values;
  if (convert_one(a, from, NULL) || convert_one(a, to, NULL)) return RIGOR_ECONFIG;
  json_t *jfrom = a->axis->values[before].value, *jto = a->axis->values[before + 1].value;
  double dfrom = json_number_value(jfrom), dto = json_number_value(jto);
  int64_t ifrom = json_integer_value(jfrom), ito = json_integer_value(jto);
  for (size_t k = before; k < before + 2; k++) {
    char *key =
        json_dumps(a->axis->values[k].value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    if (key) json_object_del(a->axis->seen_values, key);
    free(key);
    json_object_del(a->axis->seen_labels, a->axis->values[k].label);
  }
  json_decref(jfrom), json_decref(jto);
  a->axis->n_values = before;
  if (real ? dfrom > dto : ifrom > ito)
    return rigor__fail(c, n, "range 'from' %s is above 'to' %s", from->text, to->text);
  double dk = 0;
  int64_t ik = 0;
  const rigor__node_t *k = factor ? factor : step;
  if (range_number(a, k, factor ? "range factor" : "range step", real, size, step != NULL, &dk,
                   &ik))
    return RIGOR_ECONFIG;
  if (factor && (real ? !(dk > 1) : ik < 2))
    return rigor__fail(c, k, "range factor must be %s", real ? "above 1" : "an integer >= 2");
  if (factor && (real ? !(dfrom > 0) : ifrom < 1))
    return rigor__fail(c, from, "a range with a factor must start above 0");
  if (step && (real ? !(dk > 0) : ik < 1)) return rigor__fail(c, k, "range step must be above 0");
  char text[64];
  for (size_t count = 0;; count++) {
    if (count == RIGOR_CONFIG_MAX_RANGE)
      return rigor__fail(c, n, "range yields more than %d values", RIGOR_CONFIG_MAX_RANGE);
    if (real)
      snprintf(text, sizeof text, "%.17g", dfrom + (step ? (double)count * dk : 0));
    else
      snprintf(text, sizeof text, "%" PRId64, ifrom);
    rigor__node_t *one = rigor__scalar_like(c, n, text);
    if (!one || convert_one(a, one, NULL)) return RIGOR_ECONFIG;
    if (real) {
      double next = step ? dfrom + (double)(count + 1) * dk : dfrom * dk;
      if (factor) dfrom = next;
      if (next > dto * (1 + 1e-12)) break;
    } else {
      if (factor ? ifrom > ito / ik : ifrom > ito - ik) break;
      ifrom = factor ? ifrom * ik : ifrom + ik;
    }
  }
  return 0;
}

static int axis_values(axis_ctx_t *a, const rigor__node_t *n) {
  if (n->kind == RIGOR__SEQ) {
    if (n->n == 0) return rigor__fail(a->c, n, "axis '%s' has no values", a->axis->key);
    for (size_t i = 0; i < n->n; i++)
      if (convert_item(a, n->items[i])) return RIGOR_ECONFIG;
    return 0;
  }
  if (n->kind == RIGOR__MAP && (rigor__get(n, "from") || rigor__get(n, "to")))
    return expand_range(a, n);
  return convert_item(a, n);
}

static int param_names(const rigor_plugin_t *d, const char **names, size_t cap) {
  size_t n = 0;
  for (uint32_t i = 0; i < d->n_params && n + 1 < cap; i++)
    names[n++] = d->params[i].name;
  names[n] = NULL;
  return (int)n;
}

static int unknown_param(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *key,
                         const char *where) {
  const char *names[256];
  size_t n = (size_t)param_names(d, names, 256);
  const char *near = rigor__closest(key->text, names, n);
  if (near)
    return rigor__fail(c, key, "plugin '%s' has no param '%s' (%s; did you mean '%s'?)", d->name,
                       key->text, where, near);
  return rigor__fail(c, key, "plugin '%s' has no param '%s' (%s)", d->name, key->text, where);
}

/* Resolves an axis key to a plugin param or a core field. */
static int resolve_axis(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *key,
                        bool core_allowed, axis_ctx_t *a) {
  const char *dot = strchr(key->text, '.');
  a->axis->key = key->text;
  a->axis->node = key;
  if (!dot) {
    a->param = rigor_param_lookup(d, key->text);
    if (!a->param) return unknown_param(c, d, key, core_allowed ? "matrix axis" : "sweep axis");
    a->axis->section = "params";
    a->axis->field = a->param->name;
    return 0;
  }
  if (!core_allowed)
    return rigor__fail(c, key, "sweep axes are plugin params; '%s' belongs in the matrix",
                       key->text);
  size_t len = (size_t)(dot - key->text);
  const char *section = NULL;
  if (len == 6 && strncmp(key->text, "timing", 6) == 0)
    section = "timing";
  else if (len == 11 && strncmp(key->text, "environment", 11) == 0)
    section = "environment";
  else
    return rigor__fail(
        c, key, "matrix axis '%s': axes name plugin params, timing.* or environment.*", key->text);
  a->field = rigor__field_find(section, dot + 1);
  if (!a->field) {
    const char *const *names = rigor__section_fields(section);
    size_t n = 0;
    while (names[n])
      n++;
    const char *near = rigor__closest(dot + 1, names, n);
    if (near)
      return rigor__fail(c, key, "matrix axis '%s': %s has no field '%s' (did you mean '%s'?)",
                         key->text, section, dot + 1, near);
    return rigor__fail(c, key, "matrix axis '%s': %s has no field '%s'", key->text, section,
                       dot + 1);
  }
  a->axis->section = section;
  a->axis->field = a->field->name;
  return 0;
}

static void axis_release(rigor__axis_t *axis) {
  for (size_t i = 0; i < axis->n_values; i++)
    json_decref(axis->values[i].value);
  axis->n_values = 0;
  json_decref(axis->seen_values);
  json_decref(axis->seen_labels);
  axis->seen_values = axis->seen_labels = NULL;
}

/* ---- sweep ----------------------------------------------------------------------------- */

int rigor__sweep(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n, json_t **out) {
  json_t *sweep = json_array();
  *out = sweep;
  if (!n || rigor__is_null(n)) return 0;
  if (rigor__expect(c, n, RIGOR__MAP, "sweep")) return RIGOR_ECONFIG;
  size_t total = 1;
  for (size_t i = 0; i < n->n; i++) {
    rigor__axis_t axis = {0};
    axis_ctx_t a = {.c = c, .d = d, .axis = &axis};
    if (resolve_axis(c, d, n->keys[i], false, &a) || axis_values(&a, n->items[i])) {
      axis_release(&axis);
      return RIGOR_ECONFIG;
    }
    json_t *values = json_array();
    for (size_t k = 0; k < axis.n_values; k++)
      json_array_append(values, axis.values[k].value);
    axis_release(&axis);
    json_array_append_new(sweep, json_pack("{s:s, s:o}", "axis", a.param->name, "values", values));
    total *= json_array_size(values);
    if (total > RIGOR_CONFIG_MAX_RANGE)
      return rigor__fail(c, n, "sweep has more than %d points", RIGOR_CONFIG_MAX_RANGE);
  }
  return 0;
}

/* ---- matrix ---------------------------------------------------------------------------- */

typedef struct matrix {
  rigor__axis_t *axes;
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
  const char *near = rigor__closest(name->text, keys, n);
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

static int find_value(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__axis_t *axis,
                      const rigor__node_t *n, size_t *out) {
  if (n->kind == RIGOR__SCALAR)
    for (size_t i = 0; i < axis->n_values; i++)
      if (strcmp(axis->values[i].label, n->text) == 0) return *out = i, 0;
  rigor__axis_t probe = {.key = axis->key, .section = axis->section, .field = axis->field};
  axis_ctx_t a = {.c = c, .d = d, .axis = &probe, .labels_allowed = true};
  if (strcmp(axis->section, "params") == 0)
    a.param = rigor_param_lookup(d, axis->field);
  else
    a.field = rigor__field_find(axis->section, axis->field);
  if (convert_item(&a, n)) {
    axis_release(&probe);
    return RIGOR_ECONFIG;
  }
  for (size_t i = 0; probe.n_values == 1 && i < axis->n_values; i++)
    if (json_equal(axis->values[i].value, probe.values[0].value)) {
      axis_release(&probe);
      return *out = i, 0;
    }
  axis_release(&probe);
  return rigor__fail(c, n, "exclude: axis '%s' has no value '%s'", axis->key,
                     n->kind == RIGOR__SCALAR ? n->text : "(mapping)");
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
          find_value(c, d, &m->axes[ai], entry->items[i], &vi))
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
  for (size_t i = 0; i < m->n_axes; i++) {
    const char *dot = strrchr(m->axes[i].key, '.');
    used += (size_t)sprintf(out + used, "%s%s=%s", i ? ", " : "", dot ? dot + 1 : m->axes[i].key,
                            m->axes[i].values[v[i]].label);
  }
  return out;
}

/* Variants share every unchanged part of the base settings (jansson reference counts): the
 * settings are read-only once loaded, and copying them whole made large matrices slow. */
static int make_variant(const matrix_t *m, const size_t *v, const json_t *settings,
                        rigor_variant_t *out) {
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
    bool own = false;
    for (size_t k = 0; k < n_copied && !own; k++)
      own = strcmp(copied[k], axis->section) == 0;
    if (!own) {
      json_t *section = json_copy(json_object_get(out->settings, axis->section));
      if (!section || json_object_set_new(out->settings, axis->section, section) != 0)
        return RIGOR_ENOMEM;
      if (n_copied < 4) copied[n_copied++] = axis->section;
    }
    json_object_set(json_object_get(out->settings, axis->section), axis->field, val->value);
  }
  return 0;
}

static int build_variants(rigor__cfg_t *c, const rigor__node_t *at, matrix_t *m,
                          const json_t *settings, rigor_experiment_t *e) {
  uint64_t cells = 1;
  for (size_t g = 0; g < m->n_groups; g++) {
    cells *= m->group_len[g];
    if (cells > RIGOR_CONFIG_MAX_VARIANTS) break;
  }
  if (cells > RIGOR_CONFIG_MAX_VARIANTS)
    return rigor__fail(c, at,
                       "the matrix has more than %d variants; split it into several experiments "
                       "or pair axes with zip",
                       RIGOR_CONFIG_MAX_VARIANTS);
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
    if (make_variant(m, v, settings, &e->variants[e->n_variants++]))
      rc = rigor__fail(c, at, "out of memory");
  }
  free(gi), free(v);
  if (rc == 0 && e->n_variants == 0)
    rc = rigor__fail(c, at, "exclude removes every variant of the matrix");
  return rc;
}

int rigor__matrix(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                  const json_t *settings, const json_t *sweep, rigor_experiment_t *e,
                  json_t **canonical) {
  matrix_t m = {0};
  const rigor__node_t *zip = NULL, *ex = NULL;
  *canonical = json_null();
  if (n && !rigor__is_null(n)) {
    if (rigor__expect(c, n, RIGOR__MAP, "matrix")) return RIGOR_ECONFIG;
    m.axes = rigor__alloc(c, (n->n + 1) * sizeof *m.axes);
    m.group = rigor__alloc(c, (n->n + 1) * sizeof *m.group);
    m.group_len = rigor__alloc(c, (n->n + 1) * sizeof *m.group_len);
    m.group_first = rigor__alloc(c, (n->n + 1) * sizeof *m.group_first);
    if (!m.axes || !m.group || !m.group_len || !m.group_first)
      return rigor__fail(c, n, "out of memory");
  }
  int rc = 0;
  for (size_t i = 0; n && !rigor__is_null(n) && i < n->n && rc == 0; i++) {
    const char *key = n->keys[i]->text;
    if (strcmp(key, "zip") == 0) {
      zip = n->items[i];
      continue;
    }
    if (strcmp(key, "exclude") == 0) {
      ex = n->items[i];
      continue;
    }
    rigor__axis_t *axis = &m.axes[m.n_axes];
    axis_ctx_t a = {.c = c, .d = d, .axis = axis, .labels_allowed = true};
    rc = resolve_axis(c, d, n->keys[i], true, &a);
    m.n_axes++;
    if (!rc) rc = axis_values(&a, n->items[i]);
    for (size_t s = 0; !rc && a.param && s < json_array_size(sweep); s++)
      if (strcmp(json_string_value(json_object_get(json_array_get(sweep, s), "axis")),
                 a.param->name) == 0)
        rc = rigor__fail(c, n->keys[i], "param '%s' is both a sweep axis and a matrix axis",
                         a.param->name);
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
    rc = build_variants(c, n ? n : NULL, &m, settings, e);
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
    axis_release(&m.axes[i]);
  return rc;
}
