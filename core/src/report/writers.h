/* Report writers, one table entry per format: report, compare, rounds and history all build a
 * document (document.h) and hand it to the writer the user named. Adding a format is adding an
 * entry. */
#ifndef RIGOR_WRITERS_H
#define RIGOR_WRITERS_H

#include <stdio.h>

#include "document.h"

typedef struct rigor_writer {
  const char *name;
  const char *summary;
  int (*write)(const rigor_doc_t *doc, FILE *out); /* 0, or RIGOR_EIO when out failed */
} rigor_writer_t;

/* NULL-name-terminated, text first. */
extern const rigor_writer_t rigor_writers[];
const rigor_writer_t *rigor_writer_find(const char *name);
/* "text, md, csv, json, html", for usage lines and errors. */
const char *rigor_writer_names(void);

/* Shows doc through `show` on a stream that escapes the control characters of what the
 * document quotes from files, for the writers whose output reaches a terminal. Returns 0, or
 * RIGOR_EIO when out failed. */
int rigor_write_guarded(const rigor_doc_t *doc, FILE *out,
                        void (*show)(const rigor_doc_t *doc, FILE *out));

int rigor_write_text(const rigor_doc_t *doc, FILE *out); /* writer_text.c */
int rigor_write_md(const rigor_doc_t *doc, FILE *out);   /* writer_md.c */
int rigor_write_csv(const rigor_doc_t *doc, FILE *out);  /* writer_csv.c */
int rigor_write_json(const rigor_doc_t *doc, FILE *out); /* writer_json.c */
int rigor_write_html(const rigor_doc_t *doc, FILE *out); /* writer_html.c */

/* HTML written by hand keeps the pages self-contained, with no script and no network: s with
 * <, >, & and " escaped; NULL writes nothing. */
void rigor_html_escape(FILE *out, const char *s);

#endif
