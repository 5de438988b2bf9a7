#include <stdlib.h>
#include <string.h>

#include "writers.h"

enum { CELL_MAX = 4096 };

/* Display width in columns: UTF-8 continuation bytes take none. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    w += ((unsigned char)*s & 0xC0) != 0x80;
  return w;
}

static void table(const rigor_table_t *t, FILE *out) {
  size_t *w = calloc(t->n_cols ? t->n_cols : 1, sizeof *w);
  if (!w) return;
  char cell[CELL_MAX];
  for (size_t c = 0; c < t->n_cols; c++) {
    w[c] = width(t->headers[c]);
    for (size_t r = 0; r < t->n_rows; r++) {
      rigor_table_cell_text(t, r, c, cell, sizeof cell);
      if (width(cell) > w[c]) w[c] = width(cell);
    }
  }
  if (t->title[0]) fprintf(out, "%s\n", t->title);
  for (size_t r = 0; r <= t->n_rows; r++) {
    for (size_t c = 0; c < t->n_cols; c++) {
      if (r == 0)
        snprintf(cell, sizeof cell, "%s", t->headers[c]);
      else
        rigor_table_cell_text(t, r - 1, c, cell, sizeof cell);
      size_t pad = w[c] - width(cell);
      bool right = r > 0 && rigor_table_cell_numeric(t, r - 1, c);
      fprintf(out, "%s%*s%s%*s", c ? "  " : "", right ? (int)pad : 0, "", cell,
              right || c + 1 == t->n_cols ? 0 : (int)pad, "");
    }
    fputc('\n', out);
  }
  free(w);
}

int rigor_write_text(const rigor_doc_t *doc, FILE *out) {
  bool first_section = true;
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    size_t k;
    json_t *note;
    switch (p->kind) {
    case RIGOR_PART_HEADING:
      if (p->level == 1) break; /* a terminal needs no document title */
      fprintf(out, "%s%s\n\n", first_section ? "" : "\n", p->text);
      first_section = false;
      break;
    case RIGOR_PART_TABLE:
      table(p->table, out);
      fputc('\n', out);
      break;
    case RIGOR_PART_NOTES:
      json_array_foreach(p->notes, k, note) fprintf(out, "note: %s\n", json_string_value(note));
      break;
    case RIGOR_PART_TEXT:
      fprintf(out, "%s\n", p->text);
      break;
    case RIGOR_PART_FIGURE:
      break;
    }
  }
  return ferror(out) ? RIGOR_EIO : 0;
}
