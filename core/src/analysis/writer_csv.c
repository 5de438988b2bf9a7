#include <string.h>

#include "writers.h"

enum { CELL_MAX = 4096 };

static void cell(const char *s, FILE *out) {
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

static void table(const rigor_table_t *t, FILE *out) {
  char text[CELL_MAX];
  if (t->title[0]) fprintf(out, "# %s\n", t->title);
  for (size_t r = 0; r <= t->n_rows; r++) {
    for (size_t c = 0; c < t->n_cols; c++) {
      if (c) fputc(',', out);
      if (r == 0) {
        cell(t->headers[c], out);
      } else {
        rigor_table_cell_text(t, r - 1, c, text, sizeof text);
        cell(text, out);
      }
    }
    fputc('\n', out);
  }
}

int rigor_write_csv(const rigor_doc_t *doc, FILE *out) {
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    size_t k;
    json_t *note;
    switch (p->kind) {
    case RIGOR_PART_HEADING:
      if (p->level > 1) fprintf(out, "# %s\n", p->text);
      break;
    case RIGOR_PART_TABLE:
      table(p->table, out);
      fputc('\n', out);
      break;
    case RIGOR_PART_NOTES:
      json_array_foreach(p->notes, k, note) fprintf(out, "# note: %s\n", json_string_value(note));
      break;
    case RIGOR_PART_TEXT:
      fprintf(out, "# %s\n", p->text);
      break;
    case RIGOR_PART_FIGURE:
      break;
    }
  }
  return ferror(out) ? RIGOR_EIO : 0;
}
