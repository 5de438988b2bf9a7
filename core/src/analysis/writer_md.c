#include "writers.h"

enum { CELL_MAX = 4096 };

static void cell(const char *s, FILE *out) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', out);
    fputc(*s, out);
  }
}

static void table(const rigor_table_t *t, FILE *out) {
  char text[CELL_MAX];
  if (t->title[0]) fprintf(out, "### %s\n\n", t->title);
  for (size_t r = 0; r <= t->n_rows + 1; r++) {
    fputc('|', out);
    for (size_t c = 0; c < t->n_cols; c++) {
      fputc(' ', out);
      if (r == 1) {
        fputs("---", out);
      } else if (r == 0) {
        cell(t->headers[c], out);
      } else {
        rigor_table_cell_text(t, r - 2, c, text, sizeof text);
        cell(text, out);
      }
      fputs(" |", out);
    }
    fputc('\n', out);
  }
  fputc('\n', out);
}

int rigor_write_md(const rigor_doc_t *doc, FILE *out) {
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    size_t k;
    json_t *note;
    switch (p->kind) {
    case RIGOR_PART_HEADING:
      fprintf(out, "%s %s\n\n", p->level == 1 ? "#" : "##", p->text);
      break;
    case RIGOR_PART_TABLE:
      table(p->table, out);
      break;
    case RIGOR_PART_NOTES:
      json_array_foreach(p->notes, k, note) fprintf(out, "- %s\n", json_string_value(note));
      fputc('\n', out);
      break;
    case RIGOR_PART_TEXT:
      fprintf(out, "%s\n\n", p->text);
      break;
    case RIGOR_PART_FIGURE:
      break;
    }
  }
  return ferror(out) ? RIGOR_EIO : 0;
}
