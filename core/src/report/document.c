#include "document.h"
#include "suggest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rigor_doc_t *rigor_doc_new(const char *title) {
  rigor_doc_t *doc = calloc(1, sizeof *doc);
  if (doc) doc->title = strdup(title);
  return doc;
}

/* Everything a part owns. */
static void part_free(rigor_part_t *p) {
  free(p->text);
  rigor_table_free(p->table);
  json_decref(p->notes);
  json_decref(p->warnings);
  free(p->figure_arg);
  free(p->section);
}

void rigor_doc_free(rigor_doc_t *doc) {
  if (!doc) return;
  for (size_t i = 0; i < doc->n_parts; i++)
    part_free(&doc->parts[i]);
  free(doc->parts);
  free(doc->title);
  free(doc->section), free(doc->main_table), free(doc->data_table);
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
  if (doc->section) p->section = strdup(doc->section);
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

void rigor_doc_context(rigor_doc_t *doc, rigor_table_t *fields, json_t *warnings) {
  rigor_part_t *p = fields ? push(doc, RIGOR_PART_CONTEXT) : NULL;
  if (!p) {
    rigor_table_free(fields);
    json_decref(warnings);
    return;
  }
  p->table = fields;
  p->warnings = warnings;
}

static void replace(char **slot, const char *value) {
  free(*slot);
  *slot = value ? strdup(value) : NULL;
}

void rigor_doc_section(rigor_doc_t *doc, const char *name) {
  replace(&doc->section, name);
}

void rigor_doc_main_table(rigor_doc_t *doc, const char *name) {
  replace(&doc->main_table, name);
}

const char *rigor_doc_data_table(const rigor_doc_t *doc) {
  if (doc->data_table) return doc->data_table;
  if (doc->main_table) return doc->main_table;
  for (size_t i = 0; i < doc->n_parts; i++)
    if (doc->parts[i].kind == RIGOR_PART_TABLE) return doc->parts[i].table->name;
  return "";
}

static bool part_has_table(const rigor_part_t *p, const char *name) {
  return (p->kind == RIGOR_PART_TABLE || p->kind == RIGOR_PART_CONTEXT) && p->table &&
         strcmp(p->table->name, name) == 0;
}

/* s is an item of the ", "-separated list. */
static bool listed(const char *list, const char *s) {
  size_t n = strlen(s);
  for (const char *p = list; n && (p = strstr(p, s)); p += n)
    if ((p == list || (p - list >= 2 && p[-2] == ',' && p[-1] == ' ')) &&
        (p[n] == '\0' || p[n] == ','))
      return true;
  return false;
}

static void append(char *buf, size_t len, const char *s) {
  size_t used = strlen(buf);
  if (!listed(buf, s)) snprintf(buf + used, len - used, "%s%s", used ? ", " : "", s);
}

/* The columns of one table in the order asked, skipping those it lacks; false when out of
 * memory. */
static bool project(rigor_part_t *p, const char *const *columns, size_t n, bool *matched) {
  size_t *cols = malloc((n ? n : 1) * sizeof *cols), k = 0;
  if (!cols) return false;
  for (size_t i = 0; i < n; i++) {
    long c = rigor_table_find(p->table, columns[i]);
    if (c < 0) continue;
    matched[i] = true;
    cols[k++] = (size_t)c;
  }
  rigor_table_t *t = rigor_table_project(p->table, cols, k);
  free(cols);
  if (!t) return false;
  rigor_table_free(p->table);
  p->table = t;
  return true;
}

int rigor_doc_select(rigor_doc_t *doc, const char *table, const char *const *columns,
                     size_t n_columns, char *err, size_t errlen) {
  char names[4096] = "";
  bool found = false;
  for (size_t i = 0; i < doc->n_parts; i++) {
    const rigor_part_t *p = &doc->parts[i];
    if ((p->kind == RIGOR_PART_TABLE || p->kind == RIGOR_PART_CONTEXT) && p->table &&
        p->table->name[0]) {
      append(names, sizeof names, p->table->name);
      found = found || (table && strcmp(p->table->name, table) == 0);
    }
  }
  if (table && !found) {
    char near[160];
    snprintf(err, errlen, "no table '%s' in this report (tables: %s)%s", table,
             names[0] ? names : "none", rigor_did_you_mean(table, names, near, sizeof near));
    return RIGOR_EINVAL;
  }
  if (table) {
    size_t k = 0;
    for (size_t i = 0; i < doc->n_parts; i++) {
      rigor_part_t *p = &doc->parts[i];
      bool keep = p->kind == RIGOR_PART_HEADING || p->kind == RIGOR_PART_CONTEXT ||
                  part_has_table(p, table);
      if (keep) {
        doc->parts[k++] = *p;
        continue;
      }
      part_free(p);
    }
    doc->n_parts = k;
    replace(&doc->data_table, table);
  }
  if (n_columns == 0) return 0;
  const char *target = rigor_doc_data_table(doc);
  bool *matched = calloc(n_columns, sizeof *matched);
  if (!matched) return RIGOR_ENOMEM;
  char available[4096] = "";
  int rc = 0;
  for (size_t i = 0; !rc && i < doc->n_parts; i++) {
    rigor_part_t *p = &doc->parts[i];
    if (!part_has_table(p, target)) continue;
    for (size_t c = 0; c < p->table->n_cols; c++)
      if (p->table->show[c] != RIGOR_SHOW_DATA)
        append(available, sizeof available, p->table->headers[c]);
    if (!project(p, columns, n_columns, matched)) rc = RIGOR_ENOMEM;
  }
  for (size_t i = 0; !rc && i < n_columns; i++)
    if (!matched[i]) {
      char near[160];
      snprintf(err, errlen, "table '%s' has no column '%s' (columns: %s)%s", target, columns[i],
               available[0] ? available : "none",
               rigor_did_you_mean(columns[i], available, near, sizeof near));
      rc = RIGOR_EINVAL;
    }
  free(matched);
  return rc;
}
