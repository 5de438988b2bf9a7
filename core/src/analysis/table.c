#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "rigor/plugin.h"

int rigor_format_parse(const char *name, rigor_format_t *out) {
  static const char *const names[] = {"text", "md", "csv", "json", "html"};
  for (int i = 0; name && i < 5; i++)
    if (strcmp(name, names[i]) == 0) {
      *out = (rigor_format_t)i;
      return 0;
    }
  return RIGOR_EINVAL;
}

rigor_table_t *rigor_table_new(const char *title, size_t n_cols, const char *const *headers) {
  rigor_table_t *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->title = strdup(title ? title : "");
  t->n_cols = n_cols;
  t->headers = calloc(n_cols, sizeof *t->headers);
  if (!t->title || !t->headers) {
    rigor_table_free(t);
    return NULL;
  }
  for (size_t c = 0; c < n_cols; c++)
    t->headers[c] = strdup(headers[c]);
  return t;
}

int rigor_table_add(rigor_table_t *t, const char *const *cells) {
  if (t->n_rows == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    char **c = realloc(t->cells, cap * t->n_cols * sizeof *c);
    if (!c) return RIGOR_ENOMEM;
    t->cells = c;
    t->cap = cap;
  }
  for (size_t c = 0; c < t->n_cols; c++)
    t->cells[t->n_rows * t->n_cols + c] = strdup(cells[c] ? cells[c] : "");
  t->n_rows++;
  return 0;
}

void rigor_table_free(rigor_table_t *t) {
  if (!t) return;
  for (size_t c = 0; t->headers && c < t->n_cols; c++)
    free(t->headers[c]);
  for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
    free(t->cells[i]);
  free(t->headers), free(t->cells), free(t->title), free(t);
}

/* Display width in columns: UTF-8 continuation bytes take none. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    w += ((unsigned char)*s & 0xC0) != 0x80;
  return w;
}

static bool numeric(const char *s) {
  return (*s >= '0' && *s <= '9') || ((*s == '+' || *s == '-') && s[1] >= '0' && s[1] <= '9');
}

static void print_text(const rigor_table_t *t, FILE *out) {
  size_t *w = calloc(t->n_cols, sizeof *w);
  if (!w) return;
  for (size_t c = 0; c < t->n_cols; c++) {
    w[c] = width(t->headers[c]);
    for (size_t r = 0; r < t->n_rows; r++)
      if (width(t->cells[r * t->n_cols + c]) > w[c]) w[c] = width(t->cells[r * t->n_cols + c]);
  }
  if (t->title[0]) fprintf(out, "%s\n", t->title);
  for (size_t r = 0; r <= t->n_rows; r++) {
    for (size_t c = 0; c < t->n_cols; c++) {
      const char *s = r == 0 ? t->headers[c] : t->cells[(r - 1) * t->n_cols + c];
      size_t pad = w[c] - width(s);
      bool right = r > 0 && numeric(s);
      fprintf(out, "%s%*s%s%*s", c ? "  " : "", right ? (int)pad : 0, "", s,
              right || c + 1 == t->n_cols ? 0 : (int)pad, "");
    }
    fputc('\n', out);
  }
  free(w);
}

static void md_cell(const char *s, FILE *out) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', out);
    fputc(*s, out);
  }
}

static void print_md(const rigor_table_t *t, FILE *out) {
  if (t->title[0]) fprintf(out, "### %s\n\n", t->title);
  for (size_t r = 0; r <= t->n_rows + 1; r++) {
    fputc('|', out);
    for (size_t c = 0; c < t->n_cols; c++) {
      fputc(' ', out);
      if (r == 1)
        fputs("---", out);
      else
        md_cell(r == 0 ? t->headers[c] : t->cells[(r - 2) * t->n_cols + c], out);
      fputs(" |", out);
    }
    fputc('\n', out);
  }
  fputc('\n', out);
}

static void csv_cell(const char *s, FILE *out) {
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

static void print_csv(const rigor_table_t *t, FILE *out) {
  if (t->title[0]) fprintf(out, "# %s\n", t->title);
  for (size_t r = 0; r <= t->n_rows; r++) {
    for (size_t c = 0; c < t->n_cols; c++) {
      if (c) fputc(',', out);
      csv_cell(r == 0 ? t->headers[c] : t->cells[(r - 1) * t->n_cols + c], out);
    }
    fputc('\n', out);
  }
}

void rigor_table_print(const rigor_table_t *t, rigor_format_t fmt, FILE *out) {
  if (fmt == RIGOR_FORMAT_MD)
    print_md(t, out);
  else if (fmt == RIGOR_FORMAT_CSV)
    print_csv(t, out);
  else
    print_text(t, out);
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
