#include "document.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

rigor_doc_t *rigor_doc_new(const char *title) {
  rigor_doc_t *doc = calloc(1, sizeof *doc);
  if (doc) doc->title = strdup(title);
  return doc;
}

void rigor_doc_free(rigor_doc_t *doc) {
  if (!doc) return;
  for (size_t i = 0; i < doc->n_parts; i++) {
    rigor_part_t *p = &doc->parts[i];
    free(p->text);
    rigor_table_free(p->table);
    json_decref(p->notes);
    free(p->figure_arg);
  }
  free(doc->parts);
  free(doc->title);
  json_decref(doc->data);
  if (doc->state_free) doc->state_free(doc->state);
  free(doc);
}

static rigor_part_t *push(rigor_doc_t *doc, rigor_part_kind_t kind) {
  if (doc->n_parts == doc->cap) {
    size_t cap = doc->cap ? 2 * doc->cap : 16;
    rigor_part_t *p = realloc(doc->parts, cap * sizeof *p);
    if (!p) return NULL;
    doc->parts = p;
    doc->cap = cap;
  }
  rigor_part_t *p = &doc->parts[doc->n_parts++];
  memset(p, 0, sizeof *p);
  p->kind = kind;
  return p;
}

static char *vformat(const char *fmt, va_list ap) {
  char *text = NULL;
  return vasprintf(&text, fmt, ap) < 0 ? NULL : text;
}

void rigor_doc_heading(rigor_doc_t *doc, int level, const char *fmt, ...) {
  rigor_part_t *p = push(doc, RIGOR_PART_HEADING);
  if (!p) return;
  p->level = level;
  va_list ap;
  va_start(ap, fmt);
  p->text = vformat(fmt, ap);
  va_end(ap);
}

void rigor_doc_text(rigor_doc_t *doc, const char *fmt, ...) {
  rigor_part_t *p = push(doc, RIGOR_PART_TEXT);
  if (!p) return;
  va_list ap;
  va_start(ap, fmt);
  p->text = vformat(fmt, ap);
  va_end(ap);
}

void rigor_doc_table(rigor_doc_t *doc, rigor_table_t *table) {
  if (!table) return;
  rigor_part_t *p = push(doc, RIGOR_PART_TABLE);
  if (p)
    p->table = table;
  else
    rigor_table_free(table);
}

void rigor_doc_notes(rigor_doc_t *doc, json_t *notes) {
  if (json_array_size(notes) == 0) {
    json_decref(notes);
    return;
  }
  rigor_part_t *p = push(doc, RIGOR_PART_NOTES);
  if (p)
    p->notes = notes;
  else
    json_decref(notes);
}

void rigor_doc_figure(rigor_doc_t *doc, rigor_figure_fn fn, const void *arg, size_t arg_size) {
  rigor_part_t *p = push(doc, RIGOR_PART_FIGURE);
  if (!p) return;
  p->figure = fn;
  p->figure_arg = malloc(arg_size ? arg_size : 1);
  if (p->figure_arg) memcpy(p->figure_arg, arg, arg_size);
}
