#include <stdlib.h>
#include <string.h>

#include "term_text.h"
#include "writers.h"

enum { CELL_MAX = 4096, FOLD_MIN = 16 };

/* A cell or header as shown: on one line, its control characters escaped (term_text.h). */
static void shown_cell(const rigor_table_t *t, long row, size_t c, rigor_unit_t *unit, char *out,
                       size_t len) {
  char raw[CELL_MAX];
  if (row < 0)
    rigor_table_header_human(t, c, unit, raw, sizeof raw);
  else
    rigor_table_cell_human(t, (size_t)row, c, unit, raw, sizeof raw);
  rigor_term_text(raw, out, len);
}

/* Display width in columns: UTF-8 continuation bytes take none. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    w += ((unsigned char)*s & 0xC0) != 0x80;
  return w;
}

/* Copies into line the longest start of *s that fits in w columns, broken after a space when
 * one is there, and advances *s past it (and the spaces after it). */
static void next_line(const char **s, size_t w, char *line, size_t len) {
  const char *p = *s, *brk = NULL;
  size_t cols = 0;
  while (*p && cols < w) {
    if (*p == ' ' && p > *s && p[-1] != ' ') brk = p;
    p++;
    while (((unsigned char)*p & 0xC0) == 0x80)
      p++;
    cols++;
  }
  if (*p && *p != ' ' && brk) p = brk;
  size_t n = (size_t)(p - *s) < len - 1 ? (size_t)(p - *s) : len - 1;
  memcpy(line, *s, n);
  line[n] = '\0';
  while (*p == ' ')
    p++;
  *s = p;
}

/* A paragraph broken to `limit` columns (none when 0), later lines indented by `indent`. */
static void paragraph(FILE *out, const char *lead, const char *text, int limit, size_t indent) {
  fputs(lead, out);
  size_t first = width(lead);
  if (limit <= 0 || (size_t)limit <= first + 8) {
    fprintf(out, "%s\n", text);
    return;
  }
  char line[CELL_MAX];
  const char *s = text;
  bool start = true;
  do {
    size_t room = (size_t)limit - (start ? first : indent);
    next_line(&s, room, line, sizeof line);
    fprintf(out, "%*s%s\n", start ? 0 : (int)indent, "", line);
    start = false;
  } while (*s);
}

typedef struct layout {
  size_t n, *cols, *w;
  rigor_unit_t *units;
  long fold; /* index into cols of the column folded onto more lines, or -1 */
} layout_t;

static size_t total_width(const layout_t *l) {
  size_t sum = 0;
  for (size_t i = 0; i < l->n; i++)
    sum += l->w[i] + (i ? 2 : 0);
  return sum;
}

/* The columns people see, narrowed to `limit`: the highest drop ranks leave first, then the
 * widest text column folds. The headers of the columns left out go to `dropped`. */
static bool lay_out(const rigor_table_t *t, int limit, layout_t *l, char *dropped, size_t dlen) {
  size_t n = t->n_cols ? t->n_cols : 1;
  l->cols = malloc(n * sizeof *l->cols);
  l->w = malloc(n * sizeof *l->w);
  l->units = malloc(n * sizeof *l->units);
  l->n = 0;
  l->fold = -1;
  if (!l->cols || !l->w || !l->units) return false;
  char cell[CELL_MAX];
  for (size_t c = 0; c < t->n_cols; c++) {
    if (t->show[c] == RIGOR_SHOW_DATA) continue;
    size_t i = l->n++;
    l->cols[i] = c;
    l->units[i] = rigor_table_unit(t, c);
    shown_cell(t, -1, c, &l->units[i], cell, sizeof cell);
    l->w[i] = width(cell);
    for (size_t r = 0; r < t->n_rows; r++) {
      shown_cell(t, (long)r, c, &l->units[i], cell, sizeof cell);
      if (width(cell) > l->w[i]) l->w[i] = width(cell);
    }
  }
  dropped[0] = '\0';
  while (limit > 0 && total_width(l) > (size_t)limit) {
    long pick = -1;
    for (size_t i = 0; i < l->n; i++)
      if (t->drop[l->cols[i]] && (pick < 0 || t->drop[l->cols[i]] >= t->drop[l->cols[pick]]))
        pick = (long)i;
    if (pick < 0) break;
    size_t used = strlen(dropped);
    snprintf(dropped + used, dlen - used, "%s%s", used ? ", " : "", t->headers[l->cols[pick]]);
    l->n--;
    memmove(&l->cols[pick], &l->cols[pick + 1], (l->n - (size_t)pick) * sizeof *l->cols);
    memmove(&l->w[pick], &l->w[pick + 1], (l->n - (size_t)pick) * sizeof *l->w);
    memmove(&l->units[pick], &l->units[pick + 1], (l->n - (size_t)pick) * sizeof *l->units);
  }
  size_t total = total_width(l);
  if (limit > 0 && total > (size_t)limit) {
    for (size_t i = 0; i < l->n; i++)
      if (t->kinds[l->cols[i]] == RIGOR_COL_TEXT && l->w[i] > FOLD_MIN &&
          (l->fold < 0 || l->w[i] > l->w[l->fold]))
        l->fold = (long)i;
    if (l->fold >= 0) {
      size_t excess = total - (size_t)limit, fw = l->w[l->fold];
      l->w[l->fold] = fw > excess + FOLD_MIN ? fw - excess : FOLD_MIN;
    }
  }
  /* Still too wide: the last columns go, the first (what the row is) stays. */
  while (limit > 0 && l->n > 1 && total_width(l) > (size_t)limit) {
    size_t last = l->n - 1, used = strlen(dropped);
    if ((long)last == l->fold) l->fold = -1;
    snprintf(dropped + used, dlen - used, "%s%s", used ? ", " : "", t->headers[l->cols[last]]);
    l->n--;
  }
  return true;
}

static void print_row(const rigor_table_t *t, const layout_t *l, long row, FILE *out) {
  char cell[CELL_MAX], line[CELL_MAX];
  const char *rest = NULL;
  for (size_t i = 0; i < l->n; i++) {
    size_t c = l->cols[i];
    bool right;
    shown_cell(t, row, c, &l->units[i], cell, sizeof cell);
    right = row < 0 ? rigor_table_is_numeric(t, c) : rigor_table_cell_numeric(t, (size_t)row, c);
    const char *shown = cell;
    if ((long)i == l->fold && width(cell) > l->w[i]) {
      const char *s = cell;
      next_line(&s, l->w[i], line, sizeof line);
      rest = s;
      shown = line;
      right = false;
    }
    size_t pad = l->w[i] > width(shown) ? l->w[i] - width(shown) : 0;
    bool last = i + 1 == l->n;
    fprintf(out, "%s%*s%s%*s", i ? "  " : "", right ? (int)pad : 0, "", shown,
            right || last ? 0 : (int)pad, "");
  }
  fputc('\n', out);
  size_t indent = 0;
  for (long i = 0; i < l->fold; i++)
    indent += l->w[i] + 2;
  while (rest && *rest) {
    next_line(&rest, l->w[l->fold], line, sizeof line);
    fprintf(out, "%*s%s\n", (int)indent, "", line);
  }
}

static void table(const rigor_table_t *t, int limit, FILE *out) {
  layout_t l;
  char dropped[CELL_MAX];
  if (lay_out(t, limit, &l, dropped, sizeof dropped)) {
    if (t->title[0]) paragraph(out, "", t->title, limit, 2);
    for (long r = -1; r < (long)t->n_rows; r++)
      print_row(t, &l, r, out);
    if (dropped[0]) {
      char why[CELL_MAX];
      snprintf(why, sizeof why,
               "%s left out to fit %d columns (--columns chooses, --width 0 shows all))", dropped,
               limit);
      paragraph(out, "(", why, limit, 1);
    }
  }
  free(l.cols), free(l.w), free(l.units);
}

/* Fields as "name  value" lines; a context of several sides gets their names above. */
static void context(const rigor_part_t *p, int limit, FILE *out) {
  const rigor_table_t *t = p->table;
  size_t kw = strlen("warning");
  char kbuf[CELL_MAX], vbuf[CELL_MAX];
  for (size_t r = 0; r < t->n_rows; r++) {
    const char *k = rigor_term_text(rigor_table_cell(t, r, 0)->text, kbuf, sizeof kbuf);
    if (width(k) > kw) kw = width(k);
  }
  size_t *vw = calloc(t->n_cols ? t->n_cols : 1, sizeof *vw);
  if (!vw) return;
  for (size_t c = 1; c < t->n_cols; c++) {
    vw[c] = width(t->headers[c]);
    for (size_t r = 0; r < t->n_rows; r++) {
      const char *v = rigor_term_text(rigor_table_cell(t, r, c)->text, vbuf, sizeof vbuf);
      if (width(v) > vw[c]) vw[c] = width(v);
    }
  }
  for (long r = t->n_cols > 2 ? -1 : 0; t->n_cols == 2 && r < (long)t->n_rows; r++) {
    /* One side: a long value (a path, the hash and its file) breaks under itself. */
    const char *k = rigor_term_text(rigor_table_cell(t, (size_t)r, 0)->text, kbuf, sizeof kbuf),
               *v = rigor_term_text(rigor_table_cell(t, (size_t)r, 1)->text, vbuf, sizeof vbuf);
    char lead[64];
    snprintf(lead, sizeof lead, "%-*s  ", (int)kw, k ? k : "");
    paragraph(out, lead, v ? v : "", limit, kw + 2);
  }
  for (long r = t->n_cols > 2 ? -1 : 0; t->n_cols != 2 && r < (long)t->n_rows; r++) {
    const char *k =
        r < 0 ? "" : rigor_term_text(rigor_table_cell(t, (size_t)r, 0)->text, kbuf, sizeof kbuf);
    fprintf(out, "%s%*s", k ? k : "", (int)(kw - width(k ? k : "")), "");
    for (size_t c = 1; c < t->n_cols; c++) {
      const char *v = rigor_term_text(
          r < 0 ? t->headers[c] : rigor_table_cell(t, (size_t)r, c)->text, vbuf, sizeof vbuf);
      bool last = c + 1 == t->n_cols;
      fprintf(out, "  %s%*s", v, last ? 0 : (int)(vw[c] - width(v)), "");
    }
    fputc('\n', out);
  }
  free(vw);
  size_t k;
  json_t *w;
  char lead[64];
  snprintf(lead, sizeof lead, "%-*s  ", (int)kw, "warning");
  json_array_foreach(p->warnings, k, w) paragraph(out, lead, json_string_value(w), limit, kw + 2);
}

static void write_text(const rigor_doc_t *doc, FILE *out) {
  bool first_section = true;
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    size_t k;
    json_t *note;
    switch (p->kind) {
    case RIGOR_PART_HEADING:
      if (p->level == 1) break; /* a terminal needs no document title */
      fputs(first_section ? "" : "\n", out);
      paragraph(out, "", p->text, doc->width, 2);
      fputc('\n', out);
      first_section = false;
      break;
    case RIGOR_PART_CONTEXT:
      context(p, doc->width, out);
      fputc('\n', out);
      break;
    case RIGOR_PART_TABLE:
      table(p->table, doc->width, out);
      fputc('\n', out);
      break;
    case RIGOR_PART_NOTES:
      json_array_foreach(p->notes, k, note) {
        paragraph(out, "note: ", json_string_value(note), doc->width, 6);
      }
      break;
    case RIGOR_PART_TEXT:
      paragraph(out, "", p->text, doc->width, 4);
      break;
    case RIGOR_PART_FIGURE:
      break;
    }
  }
}

int rigor_write_text(const rigor_doc_t *doc, FILE *out) {
  return rigor_write_guarded(doc, out, write_text);
}
