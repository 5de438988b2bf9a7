#include "table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"

rigor_table_t *rigor_table_new(const char *title, size_t n_cols, const char *const *headers) {
  rigor_table_t *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->title = strdup(title ? title : "");
  t->n_cols = n_cols;
  t->headers = calloc(n_cols ? n_cols : 1, sizeof *t->headers);
  t->kinds = calloc(n_cols ? n_cols : 1, sizeof *t->kinds);
  if (!t->title || !t->headers || !t->kinds) {
    rigor_table_free(t);
    return NULL;
  }
  for (size_t c = 0; c < n_cols; c++)
    t->headers[c] = strdup(headers[c]);
  return t;
}

void rigor_table_kind(rigor_table_t *t, size_t col, rigor_col_kind_t kind) {
  if (col < t->n_cols) t->kinds[col] = kind;
}

long rigor_table_add_row(rigor_table_t *t) {
  if (t->n_rows == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    rigor_cell_t *c = realloc(t->cells, cap * t->n_cols * sizeof *c);
    if (!c) return -1;
    t->cells = c;
    t->cap = cap;
  }
  for (size_t c = 0; c < t->n_cols; c++)
    t->cells[t->n_rows * t->n_cols + c] = (rigor_cell_t){NAN, NULL};
  return (long)t->n_rows++;
}

void rigor_table_set_value(rigor_table_t *t, size_t row, size_t col, double value) {
  if (row < t->n_rows && col < t->n_cols) t->cells[row * t->n_cols + col].value = value;
}

void rigor_table_set_text(rigor_table_t *t, size_t row, size_t col, const char *text) {
  if (row >= t->n_rows || col >= t->n_cols) return;
  rigor_cell_t *cell = &t->cells[row * t->n_cols + col];
  free(cell->text);
  cell->text = strdup(text ? text : "");
}

int rigor_table_add(rigor_table_t *t, const char *const *cells) {
  long r = rigor_table_add_row(t);
  if (r < 0) return RIGOR_ENOMEM;
  for (size_t c = 0; c < t->n_cols; c++)
    rigor_table_set_text(t, (size_t)r, c, cells[c]);
  return 0;
}

void rigor_table_free(rigor_table_t *t) {
  if (!t) return;
  for (size_t c = 0; t->headers && c < t->n_cols; c++)
    free(t->headers[c]);
  for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
    free(t->cells[i].text);
  free(t->headers), free(t->kinds), free(t->cells), free(t->title), free(t);
}

const rigor_cell_t *rigor_table_cell(const rigor_table_t *t, size_t row, size_t col) {
  return &t->cells[row * t->n_cols + col];
}

void rigor_table_cell_text(const rigor_table_t *t, size_t row, size_t col, char *buf, size_t len) {
  const rigor_cell_t *cell = rigor_table_cell(t, row, col);
  if (cell->text) {
    snprintf(buf, len, "%s", cell->text);
    return;
  }
  switch (t->kinds[col]) {
  case RIGOR_COL_TIME:
    rigor_fmt_time(buf, len, cell->value);
    break;
  case RIGOR_COL_RATE:
    rigor_fmt_rate(buf, len, cell->value, "B");
    break;
  case RIGOR_COL_FRACTION:
    rigor_fmt_percent(buf, len, cell->value, 0);
    break;
  case RIGOR_COL_CHANGE:
    rigor_fmt_percent(buf, len, cell->value, 1);
    break;
  case RIGOR_COL_COUNT:
  case RIGOR_COL_NUMBER:
  case RIGOR_COL_TEXT:
    rigor_fmt_number(buf, len, cell->value);
    break;
  }
}

bool rigor_table_cell_numeric(const rigor_table_t *t, size_t row, size_t col) {
  const rigor_cell_t *cell = rigor_table_cell(t, row, col);
  if (!cell->text) return t->kinds[col] != RIGOR_COL_TEXT;
  const char *s = cell->text;
  return (*s >= '0' && *s <= '9') || ((*s == '+' || *s == '-') && s[1] >= '0' && s[1] <= '9');
}

void rigor_fmt_time(char *buf, size_t len, double s) {
  if (!isfinite(s)) {
    snprintf(buf, len, "-");
    return;
  }
  double a = fabs(s);
  if (a < 1e-6)
    snprintf(buf, len, "%.3f ns", s * 1e9);
  else if (a < 1e-3)
    snprintf(buf, len, "%.3f us", s * 1e6);
  else if (a < 1)
    snprintf(buf, len, "%.3f ms", s * 1e3);
  else
    snprintf(buf, len, "%.3f s", s);
}

void rigor_fmt_rate(char *buf, size_t len, double v, const char *unit) {
  static const char *const prefix[] = {"", "K", "M", "G", "T", "P"};
  if (!isfinite(v)) {
    snprintf(buf, len, "-");
    return;
  }
  int p = 0;
  while (fabs(v) >= 1000 && p < 5) {
    v /= 1000;
    p++;
  }
  snprintf(buf, len, "%.2f %s%s/s", v, prefix[p], unit);
}

void rigor_fmt_percent(char *buf, size_t len, double f, int plus) {
  if (!isfinite(f))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, plus ? "%+.2f%%" : "%.2f%%", f * 100);
}

void rigor_fmt_number(char *buf, size_t len, double v) {
  if (!isfinite(v))
    snprintf(buf, len, "-");
  else if (v == floor(v) && fabs(v) < 1e15)
    snprintf(buf, len, "%.0f", v);
  else
    snprintf(buf, len, "%.6g", v);
}
