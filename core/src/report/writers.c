#include <stdio.h>
#include <string.h>

#include "writers.h"
#include "errors.h"
#include "term_text.h"

const rigor_writer_t rigor_writers[] = {
    {.name = "text", .summary = "aligned tables for a terminal", .write = rigor_write_text},
    {.name = "md", .summary = "Markdown pipe tables", .write = rigor_write_md},
    {.name = "csv", .summary = "comma-separated tables (RFC 4180)", .write = rigor_write_csv},
    {.name = "json", .summary = "the whole result as one JSON document", .write = rigor_write_json},
    {.name = "html", .summary = "a self-contained page with charts", .write = rigor_write_html},
    {.name = NULL},
};

const rigor_writer_t *rigor_writer_find(const char *name) {
  for (const rigor_writer_t *w = rigor_writers; name && w->name; w++)
    if (strcmp(w->name, name) == 0) return w;
  return NULL;
}

const char *rigor_writer_names(void) {
  static char names[128];
  if (!names[0])
    for (const rigor_writer_t *w = rigor_writers; w->name; w++) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", w->name);
    }
  return names;
}

int rigor_write_guarded(const rigor_doc_t *doc, FILE *out,
                        void (*show)(const rigor_doc_t *doc, FILE *out)) {
  FILE *guarded = rigor_term_guard(out);
  show(doc, guarded ? guarded : out);
  if (guarded && fclose(guarded) != 0) return RIGOR_EIO;
  return ferror(out) ? RIGOR_EIO : 0;
}

int rigor_write_json(const rigor_doc_t *doc, FILE *out) {
  json_t *j = doc->json ? doc->json(doc->json_arg) : json_incref(doc->data);
  if (!j) return RIGOR_ENOMEM;
  int rc = json_dumpf(j, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
  fputc('\n', out);
  json_decref(j);
  return rc || ferror(out) ? RIGOR_EIO : 0;
}
