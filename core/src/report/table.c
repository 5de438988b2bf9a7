#include "table.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rigor/plugin.h"
#include "units.h"

rigor_table_t *rigor_table_new(const char *title, size_t n_cols, const char *const *headers) {
  rigor_table_t *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  size_t n = n_cols ? n_cols : 1;
  t->title = strdup(title ? title : "");
  t->name = strdup("");
  t->n_cols = n_cols;
  t->headers = calloc(n, sizeof *t->headers);
  t->keys = calloc(n, sizeof *t->keys);
  t->kinds = calloc(n, sizeof *t->kinds);
  t->show = calloc(n, sizeof *t->show);
  t->drop = calloc(n, sizeof *t->drop);
  if (!t->title || !t->name || !t->headers || !t->keys || !t->kinds || !t->show || !t->drop) {
    rigor_table_free(t);
    return NULL;
  }
  for (size_t c = 0; c < n_cols; c++)
    t->headers[c] = strdup(headers[c]);
  return t;
}

void rigor_table_name(rigor_table_t *t, const char *name) {
  char *copy = strdup(name ? name : "");
  if (!t || !copy) return free(copy);
  free(t->name);
  t->name = copy;
}

void rigor_table_kind(rigor_table_t *t, size_t col, rigor_col_kind_t kind) {
  if (t && col < t->n_cols) t->kinds[col] = kind;
}

void rigor_table_key(rigor_table_t *t, size_t col, const char *key) {
  if (!t || col >= t->n_cols) return;
  free(t->keys[col]);
  t->keys[col] = key ? strdup(key) : NULL;
}

void rigor_table_show(rigor_table_t *t, size_t col, rigor_col_show_t show) {
  if (t && col < t->n_cols) t->show[col] = show;
}

void rigor_table_drop(rigor_table_t *t, size_t col, unsigned rank) {
  if (t && col < t->n_cols) t->drop[col] = rank;
}

long rigor_table_add_row(rigor_table_t *t) {
  if (t->n_rows == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    rigor_cell_t *c = realloc(t->cells, cap * (t->n_cols ? t->n_cols : 1) * sizeof *c);
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
  for (size_t c = 0; c < t->n_cols; c++) {
    if (t->headers) free(t->headers[c]);
    if (t->keys) free(t->keys[c]);
  }
  for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
    free(t->cells[i].text);
  free(t->headers), free(t->keys), free(t->kinds), free(t->show), free(t->drop);
  free(t->cells), free(t->title), free(t->name), free(t);
}

rigor_table_t *rigor_table_project(const rigor_table_t *t, const size_t *cols, size_t n) {
  const char **h = calloc(n ? n : 1, sizeof *h);
  if (!h) return NULL;
  for (size_t k = 0; k < n; k++)
    h[k] = t->headers[cols[k]];
  rigor_table_t *p = rigor_table_new(t->title, n, h);
  free(h);
  if (!p) return NULL;
  rigor_table_name(p, t->name);
  for (size_t k = 0; k < n; k++) {
    rigor_table_kind(p, k, t->kinds[cols[k]]);
    rigor_table_key(p, k, t->keys[cols[k]]);
    rigor_table_show(p, k, t->show[cols[k]]);
    rigor_table_drop(p, k, t->drop[cols[k]]);
  }
  for (size_t r = 0; r < t->n_rows; r++) {
    long row = rigor_table_add_row(p);
    if (row < 0) {
      rigor_table_free(p);
      return NULL;
    }
    for (size_t k = 0; k < n; k++) {
      const rigor_cell_t *c = rigor_table_cell(t, r, cols[k]);
      rigor_table_set_value(p, (size_t)row, k, c->value);
      if (c->text) rigor_table_set_text(p, (size_t)row, k, c->text);
    }
  }
  return p;
}

long rigor_table_find(const rigor_table_t *t, const char *name) {
  char key[256];
  for (size_t c = 0; c < t->n_cols; c++) {
    rigor_table_column_key(t, c, key, sizeof key);
    if (strcasecmp(t->headers[c], name) == 0 || strcasecmp(key, name) == 0) return (long)c;
  }
  return -1;
}

const rigor_cell_t *rigor_table_cell(const rigor_table_t *t, size_t row, size_t col) {
  return &t->cells[row * t->n_cols + col];
}

bool rigor_table_is_numeric(const rigor_table_t *t, size_t col) {
  return t->kinds[col] != RIGOR_COL_TEXT;
}

/* ---- units ---------------------------------------------------------------------------------- */

typedef struct unit_step {
  double scale;
  const char *name;
} unit_step_t;

static const unit_step_t time_units[] = {{1e-9, "ns"}, {1e-6, "µs"}, {1e-3, "ms"}, {1, "s"}};
static const unit_step_t rate_units[] = {{1, "B/s"},    {1e3, "KB/s"},  {1e6, "MB/s"},
                                         {1e9, "GB/s"}, {1e12, "TB/s"}, {1e15, "PB/s"}};
static const unit_step_t flop_units[] = {{1, "FLOP/s"},    {1e3, "KFLOP/s"},  {1e6, "MFLOP/s"},
                                         {1e9, "GFLOP/s"}, {1e12, "TFLOP/s"}, {1e15, "PFLOP/s"}};

static const unit_step_t *steps_of(rigor_col_kind_t kind, size_t *n) {
  switch (kind) {
  case RIGOR_COL_TIME:
    *n = sizeof time_units / sizeof *time_units;
    return time_units;
  case RIGOR_COL_RATE:
    *n = sizeof rate_units / sizeof *rate_units;
    return rate_units;
  case RIGOR_COL_FLOP_RATE:
    *n = sizeof flop_units / sizeof *flop_units;
    return flop_units;
  default:
    *n = 0;
    return NULL;
  }
}

rigor_unit_t rigor_unit_for(rigor_col_kind_t kind, double min_abs, double max_abs) {
  size_t n;
  const unit_step_t *steps = steps_of(kind, &n);
  if (!steps) return (rigor_unit_t){1, "", kind == RIGOR_COL_COUNT ? 0 : -1};
  if (!(isfinite(min_abs) && min_abs > 0)) {
    /* Nothing but zeros: the unit of the largest, or the base unit. */
    min_abs = isfinite(max_abs) && max_abs > 0 ? max_abs : 1;
  }
  if (!(isfinite(max_abs) && max_abs >= min_abs)) max_abs = min_abs;
  size_t i = 0;
  while (i + 1 < n && min_abs / steps[i + 1].scale >= 1)
    i++;
  while (i + 1 < n && max_abs / steps[i].scale >= 1e5)
    i++;
  double lead = floor(log10(min_abs / steps[i].scale));
  int decimals = (int)fmax(0, fmin(3, 3 - lead));
  return (rigor_unit_t){steps[i].scale, steps[i].name, decimals};
}

rigor_unit_t rigor_table_unit(const rigor_table_t *t, size_t col) {
  double lo = INFINITY, hi = 0;
  for (size_t r = 0; r < t->n_rows; r++) {
    const rigor_cell_t *c = rigor_table_cell(t, r, col);
    if (c->text || !isfinite(c->value)) continue;
    double a = fabs(c->value);
    if (a > 0) lo = fmin(lo, a);
    hi = fmax(hi, a);
  }
  return rigor_unit_for(t->kinds[col], lo, hi);
}

rigor_unit_t *rigor_table_units(const rigor_table_t *t) {
  rigor_unit_t *units = malloc((t->n_cols ? t->n_cols : 1) * sizeof *units);
  for (size_t c = 0; units && c < t->n_cols; c++)
    units[c] = rigor_table_unit(t, c);
  return units;
}

/* "-0.00" reads as a sign where there is none. */
static void drop_negative_zero(char *buf) {
  if (buf[0] != '-') return;
  for (const char *p = buf + 1; *p && (isdigit((unsigned char)*p) || *p == '.'); p++)
    if (*p != '0' && *p != '.') return;
  memmove(buf, buf + 1, strlen(buf));
}

/* Beyond this a fixed-point number prints as a wall of digits (2e298 is 299 of them): such
 * values are shown in exponent form. */
#define HUGE_FIXED 1e15

static bool huge(double v) {
  return fabs(v) >= HUGE_FIXED;
}

void rigor_fmt_sig(char *buf, size_t len, double v) {
  if (!isfinite(v)) {
    snprintf(buf, len, "-");
    return;
  }
  if (huge(v)) {
    snprintf(buf, len, "%.4g", v);
    return;
  }
  double a = fabs(v);
  if (a == 0 || a >= 1e4 || v == floor(v)) {
    snprintf(buf, len, "%.0f", v);
  } else {
    int decimals = (int)fmin(9, fmax(0, 3 - floor(log10(a))));
    snprintf(buf, len, "%.*f", decimals, v);
  }
  drop_negative_zero(buf);
}

void rigor_unit_format(const rigor_unit_t *u, rigor_col_kind_t kind, double v, char *buf,
                       size_t len) {
  if (!isfinite(v)) {
    snprintf(buf, len, "-");
    return;
  }
  switch (kind) {
  case RIGOR_COL_FRACTION:
    rigor_fmt_percent(buf, len, v, 0);
    return;
  case RIGOR_COL_CHANGE:
    rigor_fmt_percent(buf, len, v, 1);
    return;
  case RIGOR_COL_COUNT:
    snprintf(buf, len, huge(v) ? "%.4g" : "%.0f", v);
    return;
  case RIGOR_COL_SIZE:
    if (v >= 0 && v == floor(v) && v < 1.8e19) {
      char *s = rigor_format_size((uint64_t)v);
      snprintf(buf, len, "%s", s ? s : "?");
      free(s);
      return;
    }
    break;
  case RIGOR_COL_TIME:
  case RIGOR_COL_RATE:
  case RIGOR_COL_FLOP_RATE:
    if (u->decimals >= 0 && !huge(v / u->scale)) {
      snprintf(buf, len, "%.*f", u->decimals, v / u->scale);
      drop_negative_zero(buf);
      return;
    }
    rigor_fmt_sig(buf, len, v / u->scale);
    return;
  case RIGOR_COL_NUMBER:
  case RIGOR_COL_TEXT:
    break;
  }
  rigor_fmt_sig(buf, len, v);
}

void rigor_table_cell_human(const rigor_table_t *t, size_t row, size_t col, const rigor_unit_t *u,
                            char *buf, size_t len) {
  const rigor_cell_t *cell = rigor_table_cell(t, row, col);
  if (cell->text)
    snprintf(buf, len, "%s", cell->text);
  else
    rigor_unit_format(u, t->kinds[col], cell->value, buf, len);
}

void rigor_table_cell_text(const rigor_table_t *t, size_t row, size_t col, char *buf, size_t len) {
  rigor_unit_t u = rigor_table_unit(t, col);
  rigor_table_cell_human(t, row, col, &u, buf, len);
}

void rigor_table_header_human(const rigor_table_t *t, size_t col, const rigor_unit_t *u, char *buf,
                              size_t len) {
  if (u && u->name && u->name[0])
    snprintf(buf, len, "%s (%s)", t->headers[col], u->name);
  else
    snprintf(buf, len, "%s", t->headers[col]);
}

void rigor_table_cell_data(const rigor_table_t *t, size_t row, size_t col, char *buf, size_t len) {
  const rigor_cell_t *cell = rigor_table_cell(t, row, col);
  if (t->kinds[col] == RIGOR_COL_TEXT)
    snprintf(buf, len, "%s", cell->text ? cell->text : "");
  else if (!isfinite(cell->value))
    snprintf(buf, len, "%s", "");
  else if (t->kinds[col] == RIGOR_COL_COUNT || t->kinds[col] == RIGOR_COL_SIZE)
    snprintf(buf, len, "%.0f", cell->value);
  else
    snprintf(buf, len, "%.10g", cell->value);
}

void rigor_table_column_key(const rigor_table_t *t, size_t col, char *buf, size_t len) {
  if (t->keys[col]) {
    snprintf(buf, len, "%s", t->keys[col]);
    return;
  }
  size_t k = 0;
  for (const char *s = t->headers[col]; *s && k + 1 < len; s++) {
    unsigned char ch = (unsigned char)*s;
    if (isalnum(ch))
      buf[k++] = (char)tolower(ch);
    else if (k && buf[k - 1] != '_')
      buf[k++] = '_';
  }
  while (k && buf[k - 1] == '_')
    k--;
  buf[k] = '\0';
  static const char *const suffix[] = {[RIGOR_COL_TIME] = "_s",
                                       [RIGOR_COL_RATE] = "_bytes_per_s",
                                       [RIGOR_COL_FLOP_RATE] = "_flop_per_s"};
  rigor_col_kind_t kind = t->kinds[col];
  if (kind < sizeof suffix / sizeof *suffix && suffix[kind])
    snprintf(buf + k, len - k, "%s", suffix[kind]);
}

bool rigor_table_cell_numeric(const rigor_table_t *t, size_t row, size_t col) {
  const rigor_cell_t *cell = rigor_table_cell(t, row, col);
  if (!cell->text) return t->kinds[col] != RIGOR_COL_TEXT;
  const unsigned char *s = (const unsigned char *)cell->text;
  if (s[0] == '+' || s[0] == '-') s++;
  if (strncmp((const char *)s, "±", strlen("±")) == 0) s += strlen("±");
  if (strncmp((const char *)s, "≥", strlen("≥")) == 0) s += strlen("≥");
  return isdigit(*s) != 0;
}

/* ---- units after the number ----------------------------------------------------------------- */

void rigor_fmt_time(char *buf, size_t len, double s) {
  if (!isfinite(s)) {
    snprintf(buf, len, "-");
    return;
  }
  double a = fabs(s);
  if (a < 1e-6)
    snprintf(buf, len, "%.3f ns", s * 1e9);
  else if (a < 1e-3)
    snprintf(buf, len, "%.3f µs", s * 1e6);
  else if (a < 1)
    snprintf(buf, len, "%.3f ms", s * 1e3);
  else
    snprintf(buf, len, huge(s) ? "%.4g s" : "%.3f s", s);
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
  snprintf(buf, len, huge(v) ? "%.4g %s%s/s" : "%.2f %s%s/s", v, prefix[p], unit);
}

void rigor_fmt_percent(char *buf, size_t len, double f, int plus) {
  if (!isfinite(f))
    snprintf(buf, len, "-");
  else if (huge(f * 100))
    snprintf(buf, len, plus ? "%+.4g%%" : "%.4g%%", f * 100);
  else
    snprintf(buf, len, plus ? "%+.2f%%" : "%.2f%%", f * 100);
  if (!plus) drop_negative_zero(buf);
}

void rigor_fmt_change_interval(char *buf, size_t len, double lo, double hi) {
  char a[48], b[48];
  rigor_fmt_percent(a, sizeof a, lo, 1);
  rigor_fmt_percent(b, sizeof b, hi, 1);
  snprintf(buf, len, "[%s, %s]", a, b);
}

void rigor_fmt_number(char *buf, size_t len, double v) {
  if (!isfinite(v))
    snprintf(buf, len, "-");
  else if (v == floor(v) && fabs(v) < 1e15)
    snprintf(buf, len, "%.0f", v);
  else
    snprintf(buf, len, "%.6g", v);
}
