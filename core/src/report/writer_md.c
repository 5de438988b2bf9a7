#include <stdlib.h>

#include "term_text.h"
#include "writers.h"

enum { CELL_MAX = 4096 };

/* One cell or field on one line: its control characters escaped, its pipes too. */
static void cell(const char *raw, FILE *out) {
  char shown[CELL_MAX];
  for (const char *s = rigor_term_text(raw, shown, sizeof shown); *s; s++) {
    if (*s == '|') fputc('\\', out);
    fputc(*s, out);
  }
}

/* A pipe table of the columns people read, numbers right-aligned, one unit per column in its
 * header (nvbench's markdown, one column per axis). */
static void table(const rigor_table_t *t, FILE *out) {
  char text[CELL_MAX];
  rigor_unit_t *units = rigor_table_units(t);
  if (!units) return;
  if (t->title[0]) fprintf(out, "### %s\n\n", t->title);
  for (long r = -2; r < (long)t->n_rows; r++) {
    fputc('|', out);
    for (size_t c = 0; c < t->n_cols; c++) {
      if (t->show[c] == RIGOR_SHOW_DATA) continue;
      fputc(' ', out);
      if (r == -1) {
        fputs(rigor_table_is_numeric(t, c) ? "---:" : "---", out);
      } else if (r == -2) {
        rigor_table_header_human(t, c, &units[c], text, sizeof text);
        cell(text, out);
      } else {
        rigor_table_cell_human(t, (size_t)r, c, &units[c], text, sizeof text);
        cell(text, out);
      }
      fputs(" |", out);
    }
    fputc('\n', out);
  }
  fputc('\n', out);
  free(units);
}

/* One bullet per field, or a table when the context has several sides; warnings quoted. */
static void context(const rigor_part_t *p, FILE *out) {
  const rigor_table_t *t = p->table;
  if (t->n_cols > 2) {
    table(t, out);
  } else {
    for (size_t r = 0; r < t->n_rows; r++) {
      const char *k = rigor_table_cell(t, r, 0)->text, *v = rigor_table_cell(t, r, 1)->text;
      fputs("- **", out);
      cell(k ? k : "", out);
      fputs("**: ", out);
      cell(v ? v : "", out);
      fputc('\n', out);
    }
    fputc('\n', out);
  }
  size_t k;
  json_t *w;
  json_array_foreach(p->warnings, k, w) {
    fputs("> **warning**: ", out);
    cell(json_string_value(w), out);
    fputs("\n\n", out);
  }
}

static void write_md(const rigor_doc_t *doc, FILE *out) {
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    size_t k;
    json_t *note;
    switch (p->kind) {
    case RIGOR_PART_HEADING:
      fprintf(out, "%s %s\n\n", p->level == 1 ? "#" : "##", p->text);
      break;
    case RIGOR_PART_CONTEXT:
      context(p, out);
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
}

int rigor_write_md(const rigor_doc_t *doc, FILE *out) {
  return rigor_write_guarded(doc, out, write_md);
}
