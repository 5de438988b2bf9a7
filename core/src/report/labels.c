#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "contrast.h"
#include "rigor/plugin.h"
#include "units.h"

/* The plugin's declared type of a parameter ("size", "uint", ...), or NULL. */
static const char *param_type(const rigor_exp_analysis_t *e, const char *name) {
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(json_object_get(e->record, "plugin"), "params"), i, p) {
    const char *n = json_string_value(json_object_get(p, "name"));
    if (n && strcmp(n, name) == 0) return json_string_value(json_object_get(p, "type"));
  }
  return NULL;
}

static const rigor_row_t *row_at(const rigor_exp_analysis_t *e, uint32_t point) {
  for (size_t r = 0; r < e->n_rows; r++)
    if (e->rows[r].point == point) return &e->rows[r];
  return NULL;
}

static const json_t *matrix_value(const rigor_exp_analysis_t *e, uint32_t v, const char *axis) {
  return v < e->n_variants ? json_object_get(e->variants[v].axes, axis) : NULL;
}

static const json_t *sweep_value(const rigor_exp_analysis_t *e, uint32_t point, const char *axis) {
  const rigor_row_t *w = row_at(e, point);
  return w ? json_object_get(w->point_params, axis) : NULL;
}

static int push(rigor_labels_t *l, const char *name, rigor_label_from_t from,
                rigor_col_kind_t kind) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->cols[i].name, name) == 0) return 0;
  rigor_label_col_t *grown = realloc(l->cols, (l->n + 1) * sizeof *grown);
  if (!grown) return RIGOR_ENOMEM;
  l->cols = grown;
  l->cols[l->n] = (rigor_label_col_t){strdup(name), from, kind};
  return l->cols[l->n++].name ? 0 : RIGOR_ENOMEM;
}

static rigor_col_kind_t kind_of(const rigor_exp_analysis_t *e, const char *name, bool numeric) {
  if (!numeric) return RIGOR_COL_TEXT;
  const char *type = param_type(e, name);
  return type && strcmp(type, "size") == 0 ? RIGOR_COL_SIZE : RIGOR_COL_NUMBER;
}

static int matrix_axes(const rigor_exp_analysis_t *e, const char *skip, rigor_labels_t *l) {
  int rc = 0;
  for (size_t v = 0; !rc && v < e->n_variants; v++) {
    const char *key;
    json_t *val;
    json_object_foreach(e->variants[v].axes, key, val) {
      if (skip && strcmp(key, skip) == 0) continue;
      bool numeric = true;
      for (size_t u = 0; u < e->n_variants; u++) {
        const json_t *x = matrix_value(e, (uint32_t)u, key);
        numeric = numeric && (!x || json_is_number(x));
      }
      if ((rc = push(l, key, RIGOR_LABEL_MATRIX, kind_of(e, key, numeric)))) break;
    }
  }
  return rc;
}

static int sweep_axes(const rigor_exp_analysis_t *e, rigor_labels_t *l) {
  int rc = 0;
  for (size_t r = 0; !rc && r < e->n_rows; r++) {
    const char *key;
    json_t *val;
    json_object_foreach(e->rows[r].point_params, key, val) {
      bool numeric = true;
      for (size_t q = 0; q < e->n_rows; q++) {
        const json_t *x = json_object_get(e->rows[q].point_params, key);
        numeric = numeric && (!x || json_is_number(x));
      }
      if ((rc = push(l, key, RIGOR_LABEL_SWEEP, kind_of(e, key, numeric)))) break;
    }
  }
  return rc;
}

int rigor_labels_of(const rigor_exp_analysis_t *e, unsigned which, const char *skip,
                    rigor_labels_t *out) {
  memset(out, 0, sizeof *out);
  out->e = e;
  int rc = 0;
  if (which & RIGOR_LABELS_VARIANT) {
    bool axes = false;
    for (size_t v = 0; v < e->n_variants && !axes; v++)
      axes = json_object_size(e->variants[v].axes) > 0;
    if (axes)
      rc = matrix_axes(e, skip, out);
    else if (e->n_variants > 1 || !e->record)
      rc = push(out, "variant", RIGOR_LABEL_VARIANT, RIGOR_COL_TEXT);
  }
  if (!rc && (which & RIGOR_LABELS_POINT)) {
    size_t before = out->n;
    rc = sweep_axes(e, out);
    bool labelled = false;
    for (size_t r = 0; r < e->n_rows && !labelled; r++)
      labelled = e->rows[r].point_label && e->rows[r].point_label[0];
    if (!rc && out->n == before && labelled)
      rc = push(out, "point", RIGOR_LABEL_POINT, RIGOR_COL_TEXT);
  }
  if (rc) rigor_labels_free(out);
  return rc;
}

void rigor_labels_free(rigor_labels_t *l) {
  for (size_t i = 0; l && i < l->n; i++)
    free(l->cols[i].name);
  if (l) free(l->cols), l->cols = NULL, l->n = 0;
}

void rigor_labels_headers(const rigor_labels_t *l, const char **headers, size_t *n) {
  for (size_t i = 0; i < l->n; i++)
    headers[(*n)++] = l->cols[i].name;
}

void rigor_labels_declare(const rigor_labels_t *l, rigor_table_t *t, size_t first) {
  for (size_t i = 0; i < l->n; i++) {
    rigor_table_kind(t, first + i, l->cols[i].kind);
    rigor_table_key(t, first + i, l->cols[i].name);
  }
}

static void text_of(const json_t *v, rigor_col_kind_t kind, char *text, size_t len) {
  if (json_is_string(v)) {
    snprintf(text, len, "%s", json_string_value(v));
  } else if (kind == RIGOR_COL_SIZE && json_is_integer(v) && json_integer_value(v) >= 0) {
    char *s = rigor_format_size((uint64_t)json_integer_value(v));
    snprintf(text, len, "%s", s ? s : "?");
    free(s);
  } else {
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));
    snprintf(text, len, "%s", s ? s : "?");
    free(s);
  }
}

bool rigor_labels_value(const rigor_labels_t *l, size_t col, uint32_t variant, uint32_t point,
                        double *value, char *text, size_t len) {
  const rigor_exp_analysis_t *e = l->e;
  const rigor_label_col_t *c = &l->cols[col];
  *value = NAN;
  text[0] = '\0';
  if (c->from == RIGOR_LABEL_VARIANT) {
    const char *s = variant < e->n_variants ? e->variants[variant].label : NULL;
    snprintf(text, len, "%s", s && *s ? s : "?");
    return variant < e->n_variants;
  }
  if (c->from == RIGOR_LABEL_POINT) {
    const rigor_row_t *w = row_at(e, point);
    snprintf(text, len, "%s", w && w->point_label && *w->point_label ? w->point_label : "-");
    return w != NULL;
  }
  const json_t *v = c->from == RIGOR_LABEL_MATRIX ? matrix_value(e, variant, c->name)
                                                  : sweep_value(e, point, c->name);
  if (!v) return false;
  if (json_is_number(v)) *value = json_number_value(v);
  if (c->from == RIGOR_LABEL_MATRIX) {
    char *label = rigor_axis_level_label(e, c->name, v);
    snprintf(text, len, "%s", label ? label : "?");
    free(label);
  } else {
    text_of(v, c->kind, text, len);
  }
  return true;
}

void rigor_labels_set(const rigor_labels_t *l, rigor_table_t *t, size_t row, size_t first,
                      uint32_t variant, uint32_t point) {
  char text[512];
  double value;
  for (size_t i = 0; i < l->n; i++) {
    if (!rigor_labels_value(l, i, variant, point, &value, text, sizeof text)) {
      rigor_table_set_text(t, row, first + i, "-");
      continue;
    }
    rigor_table_set_value(t, row, first + i, value);
    rigor_table_set_text(t, row, first + i, text);
  }
}

/* "-" is what a table prints for no value; in a label it is no part at all. */
static int present(const char *s) {
  return s && s[0] && strcmp(s, "-") != 0;
}

size_t rigor_label_join(char *buf, size_t len, const char *sep, const char *const *parts,
                        size_t n) {
  if (!len) return 0;
  buf[0] = '\0';
  size_t used = 0;
  for (size_t i = 0; i < n && used < len; i++) {
    if (!present(parts[i])) continue;
    int k = snprintf(buf + used, len - used, "%s%s", used ? sep : "", parts[i]);
    if (k < 0) break;
    used = (size_t)k < len - used ? used + (size_t)k : len - 1;
  }
  return used;
}
