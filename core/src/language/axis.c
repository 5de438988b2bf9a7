#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"
#include "params.h"
#include "suggest.h"
#include "units.h"

/* One axis: its values from a list, a scalar, a labelled map or a range. */

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
  const json_t *same = json_object_get(axis->seen_values, key);
  /* The same value twice is a mistake, unless both are labelled: then it is an A/A on purpose
   * (two arms of one setting, as `rigor ab 'CMD' 'CMD'` asks for). */
  bool dup_value = same && !(labelled && axis->values[json_integer_value(same)].labelled);
  const json_t *seen = dup_value ? NULL : json_object_get(axis->seen_labels, label);
  if (dup_value || seen) {
    free(key);
    json_decref(value);
    const rigor__axis_value_t *was = seen ? &axis->values[json_integer_value(seen)] : NULL;
    if (was && !labelled && !was->labelled && at->kind == RIGOR__SCALAR &&
        was->node->kind == RIGOR__SCALAR)
      return rigor__fail(a->c, at,
                         "axis '%s': the values '%s' and '%s' (line %u) both read '%s' in variant "
                         "labels; give one a label: {label: NAME, value: %s}",
                         axis->key, at->text, was->node->text, was->node->line + 1, label,
                         at->text);
    if (dup_value)
      return rigor__fail(a->c, at,
                         "axis '%s' lists the value '%s' twice (label both to measure one value "
                         "as two arms: {label: a, value: ...}, {label: b, value: ...})",
                         axis->key, at->kind == RIGOR__SCALAR ? at->text : label);
    return rigor__fail(a->c, at, "axis '%s' uses the label '%s' twice", axis->key, label);
  }
  if (!same) json_object_set_new(axis->seen_values, key, json_integer((json_int_t)axis->n_values));
  json_object_set_new(axis->seen_labels, label, json_integer((json_int_t)axis->n_values));
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
  axis->values[axis->n_values++] = (rigor__axis_value_t){value, kept, labelled, at};
  return 0;
}

/* Converts one value node; an enum alias expands to several values. */
static int convert_one(axis_ctx_t *a, const rigor__node_t *n, const char *label) {
  rigor__cfg_t *c = a->c;
  json_t *value = NULL;
  if (a->param && a->param->type == RIGOR_PARAM_JSON) {
    /* The whole JSON param or one member of it: any node, as params take it. */
    if (!(value = rigor__node_json(n)))
      return rigor__fail(c, n, "axis '%s': not valid UTF-8", a->axis->key);
    char *shown = label ? NULL : rigor_param_format(a->param, value);
    int rc = push_value(a, n, value, label ? label : shown ? shown : "?", label != NULL);
    free(shown);
    return rc;
  }
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
  int rc;
  if (a->field && a->field->keeps_label) {
    rc = convert_one(a, n, text);
  } else if (a->field && a->field->object) {
    rigor__node_t *rest = rigor__map_without(c, n, "label");
    rc = rest ? convert_one(a, rest, text) : rigor__fail(c, n, "out of memory");
  } else {
    static const char *const keys[] = {"label", "value", NULL};
    if (rigor__check_keys(c, n, keys, "a labelled value")) return RIGOR_ECONFIG;
    const rigor__node_t *value = rigor__get(n, "value");
    if (!value)
      return rigor__fail(c, n, "labelled value '%s' of axis '%s' needs 'value'", text,
                         a->axis->key);
    rc = convert_one(a, value, text);
  }
  /* A label's errors point at the label, where it is spelled. */
  if (rc == 0) a->axis->values[a->axis->n_values - 1].node = label;
  return rc;
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

/* Converts one range bound as a value of the axis, then takes it back out of the axis. */
static int take_bound(axis_ctx_t *a, const rigor__node_t *n, json_t **out) {
  size_t before = a->axis->n_values;
  if (convert_one(a, n, NULL)) return RIGOR_ECONFIG;
  rigor__axis_value_t *v = &a->axis->values[before];
  char *key = json_dumps(v->value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
  if (key) json_object_del(a->axis->seen_values, key);
  free(key);
  json_object_del(a->axis->seen_labels, v->label);
  *out = v->value;
  a->axis->n_values = before;
  return 0;
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
  /* Bounds go through the axis converter, so they are checked and normalised like values; each
   * is taken back out at once, so a range whose bounds are equal is one value, not a duplicate. */
  json_t *jfrom = NULL, *jto = NULL;
  if (take_bound(a, from, &jfrom) || take_bound(a, to, &jto)) {
    json_decref(jfrom);
    return RIGOR_ECONFIG;
  }
  double dfrom = json_number_value(jfrom), dto = json_number_value(jto);
  int64_t ifrom = json_integer_value(jfrom), ito = json_integer_value(jto);
  json_decref(jfrom), json_decref(jto);
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
    if (count == RIGOR_MAX_POINTS)
      return rigor__fail(c, n, "range yields more than %d values", RIGOR_MAX_POINTS);
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
  bool json = a->param && a->param->type == RIGOR_PARAM_JSON;
  if (!json && n->kind == RIGOR__MAP && (rigor__get(n, "from") || rigor__get(n, "to")))
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
  const char *near = rigor_closest(key->text, names, n);
  if (near)
    return rigor__fail(c, key, "plugin '%s' has no param '%s' (%s; did you mean '%s'?)", d->name,
                       key->text, where, near);
  return rigor__fail(c, key, "plugin '%s' has no param '%s' (%s)", d->name, key->text, where);
}

static bool has_json_param(const rigor_plugin_t *d) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (d->params[i].type == RIGOR_PARAM_JSON) return true;
  return false;
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
  const char *member = NULL;
  if ((a->param = rigor_param_member(d, key->text, &member))) {
    a->axis->section = "params";
    a->axis->field = a->param->name;
    a->axis->member = member;
    return 0;
  }
  if (!core_allowed)
    return rigor__fail(c, key, "sweep axes are plugin params; '%s' belongs in the matrix",
                       key->text);
  size_t len = (size_t)(dot - key->text);
  const char *section = rigor__section_named(key->text, len);
  if (!section)
    return rigor__fail(c, key,
                       "matrix axis '%s': axes name plugin params, %stiming.*, environment.* "
                       "or gate.*",
                       key->text, has_json_param(d) ? "members of a JSON param (PARAM.KEY), " : "");
  a->field = rigor__field_find(section, dot + 1);
  if (!a->field) {
    const char *names[RIGOR__SECTION_FIELDS_MAX + 1];
    size_t n = rigor__section_names(section, names, sizeof names / sizeof *names);
    const char *near = rigor_closest(dot + 1, names, n);
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

void rigor__axis_release(rigor__axis_t *axis) {
  for (size_t i = 0; i < axis->n_values; i++)
    json_decref(axis->values[i].value);
  axis->n_values = 0;
  json_decref(axis->seen_values);
  json_decref(axis->seen_labels);
  axis->seen_values = axis->seen_labels = NULL;
}

int rigor__axis_read(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *key,
                     const rigor__node_t *values, bool in_matrix, rigor__axis_t *axis) {
  axis_ctx_t a = {.c = c, .d = d, .axis = axis, .labels_allowed = in_matrix};
  if (resolve_axis(c, d, key, in_matrix, &a) || axis_values(&a, values)) return RIGOR_ECONFIG;
  return 0;
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
      rigor__axis_release(&axis);
      return RIGOR_ECONFIG;
    }
    for (size_t k = 0; k < i; k++)
      if (rigor__axes_overlap(n->keys[k]->text, n->keys[i]->text)) {
        rigor__axis_release(&axis);
        return rigor__fail(c, n->keys[i], "sweep axes '%s' and '%s' set the same param",
                           n->keys[k]->text, n->keys[i]->text);
      }
    json_t *values = json_array();
    for (size_t k = 0; k < axis.n_values; k++)
      json_array_append(values, axis.values[k].value);
    rigor__axis_release(&axis);
    json_array_append_new(sweep, json_pack("{s:s, s:o}", "axis",
                                           axis.member ? n->keys[i]->text : a.param->name, "values",
                                           values));
    total *= json_array_size(values);
    if (total > RIGOR_MAX_POINTS)
      return rigor__fail(c, n, "sweep has more than %d points", RIGOR_MAX_POINTS);
  }
  return 0;
}

bool rigor__axes_overlap(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la == lb) return strcmp(a, b) == 0;
  const char *longer = la > lb ? a : b, *shorter = la > lb ? b : a;
  size_t ls = la > lb ? lb : la;
  return strncmp(longer, shorter, ls) == 0 && longer[ls] == '.';
}

/* The value of a param axis that the scalar n spells, tried without reporting an error. */
static bool find_param_value(const rigor_plugin_t *d, const rigor__axis_t *axis,
                             const rigor__node_t *n, size_t *out) {
  const rigor_param_t *p =
      strcmp(axis->section, "params") == 0 ? rigor_param_lookup(d, axis->field) : NULL;
  json_t *value = NULL;
  char msg[256];
  if (!p || n->kind != RIGOR__SCALAR || rigor_param_from_text(p, n->text, &value, msg, sizeof msg))
    return false;
  bool found = false;
  for (size_t i = 0; i < axis->n_values && !found; i++)
    if (json_equal(axis->values[i].value, value)) found = true, *out = i;
  json_decref(value);
  return found;
}

/* A value first, then a label: {bytes: 2048} means the value 2048 even where another value
 * carries the label "2048". */
int rigor__axis_find(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__axis_t *axis,
                     const rigor__node_t *n, size_t *out) {
  if (find_param_value(d, axis, n, out)) return 0;
  if (n->kind == RIGOR__SCALAR)
    for (size_t i = 0; i < axis->n_values; i++)
      if (strcmp(axis->values[i].label, n->text) == 0) return *out = i, 0;
  if (!axis->field)
    return rigor__fail(c, n, "exclude: axis '%s' has no level labelled '%s'", axis->key,
                       n->kind == RIGOR__SCALAR ? n->text : "(mapping)");
  rigor__axis_t probe = {
      .key = axis->key, .section = axis->section, .field = axis->field, .member = axis->member};
  axis_ctx_t a = {.c = c, .d = d, .axis = &probe, .labels_allowed = true};
  if (strcmp(axis->section, "params") == 0)
    a.param = rigor_param_lookup(d, axis->field);
  else
    a.field = rigor__field_find(axis->section, axis->field);
  if (convert_item(&a, n)) {
    rigor__axis_release(&probe);
    return RIGOR_ECONFIG;
  }
  for (size_t i = 0; probe.n_values == 1 && i < axis->n_values; i++)
    if (json_equal(axis->values[i].value, probe.values[0].value)) {
      rigor__axis_release(&probe);
      return *out = i, 0;
    }
  rigor__axis_release(&probe);
  return rigor__fail(c, n, "exclude: axis '%s' has no value '%s'", axis->key,
                     n->kind == RIGOR__SCALAR ? n->text : "(mapping)");
}
