#include <stdlib.h>
#include <string.h>

#include "writers.h"

/* One table per file (RFC 4180, a header row, tidy): the rows of every table of the chosen name,
 * across the document's experiments, under the union of their data columns, with the
 * experiment as the first column when the tables belong to experiments. Numbers are in SI base
 * units (seconds, bytes, bytes/s, fractions); an empty cell has no value. */

enum { CELL_MAX = 4096, KEY_MAX = 256 };

static void cell(const char *s, FILE *out) {
  if (!strpbrk(s, ",\"\n\r")) {
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

static bool chosen(const rigor_part_t *p, const char *name) {
  return (p->kind == RIGOR_PART_TABLE || p->kind == RIGOR_PART_CONTEXT) && p->table &&
         strcmp(p->table->name, name) == 0;
}

static long key_index(char (*keys)[KEY_MAX], size_t n, const char *key) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(keys[i], key) == 0) return (long)i;
  return -1;
}

int rigor_write_csv(const rigor_doc_t *doc, FILE *out) {
  const char *name = rigor_doc_data_table(doc);
  size_t cap = 0;
  bool sections = false;
  for (size_t i = 0; i < doc->n_parts; i++)
    if (chosen(&doc->parts[i], name)) {
      cap += doc->parts[i].table->n_cols;
      sections = sections || doc->parts[i].section;
    }
  char(*keys)[KEY_MAX] = calloc(cap + 1, sizeof *keys);
  long *where = calloc(cap + 1, sizeof *where);
  if (!keys || !where) {
    free(keys), free(where);
    return RIGOR_ENOMEM;
  }
  size_t n = 0;
  char key[KEY_MAX];
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_table_t *t = doc->parts[i].table;
    if (!chosen(&doc->parts[i], name)) continue;
    for (size_t c = 0; c < t->n_cols; c++) {
      if (t->show[c] == RIGOR_SHOW_HUMAN) continue;
      rigor_table_column_key(t, c, key, sizeof key);
      if (key_index(keys, n, key) < 0) snprintf(keys[n++], KEY_MAX, "%s", key);
    }
  }
  if (sections) cell("experiment", out);
  for (size_t k = 0; k < n; k++) {
    if (k || sections) fputc(',', out);
    cell(keys[k], out);
  }
  fputc('\n', out);
  char text[CELL_MAX];
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    if (!chosen(p, name)) continue;
    const rigor_table_t *t = p->table;
    for (size_t k = 0; k < n; k++)
      where[k] = -1;
    for (size_t c = 0; c < t->n_cols; c++) {
      if (t->show[c] == RIGOR_SHOW_HUMAN) continue;
      rigor_table_column_key(t, c, key, sizeof key);
      where[key_index(keys, n, key)] = (long)c;
    }
    for (size_t r = 0; r < t->n_rows; r++) {
      if (sections) cell(p->section ? p->section : "", out);
      for (size_t k = 0; k < n; k++) {
        if (k || sections) fputc(',', out);
        if (where[k] < 0) continue;
        rigor_table_cell_data(t, r, (size_t)where[k], text, sizeof text);
        cell(text, out);
      }
      fputc('\n', out);
    }
  }
  free(keys), free(where);
  return ferror(out) ? RIGOR_EIO : 0;
}
