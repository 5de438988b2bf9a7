/* A report as a sequence of parts (headings, tables, notes, text, figures) plus its JSON form,
 * built once by report, compare or rounds and shown by any writer (writers.h). */
#ifndef RIGOR_DOCUMENT_H
#define RIGOR_DOCUMENT_H

#include <jansson.h>
#include <stdio.h>

#include "rigor/plugin.h"
#include "table.h"

typedef enum {
  RIGOR_PART_HEADING = 0, /* level 1: the document, 2: an experiment */
  RIGOR_PART_TABLE,
  RIGOR_PART_NOTES,  /* an array of strings */
  RIGOR_PART_TEXT,   /* one paragraph */
  RIGOR_PART_FIGURE, /* drawn only by writers that draw (html) */
  /* What a report stands on: a table of fields (host, cpu, rigor, date, config...) with one
   * value column, or one per side of a comparison, and the warnings the run recorded. */
  RIGOR_PART_CONTEXT
} rigor_part_kind_t;

/* Writes one inline SVG figure; `arg` is the copy rigor_doc_figure keeps. */
typedef void (*rigor_figure_fn)(const void *arg, FILE *out);

typedef struct rigor_part {
  rigor_part_kind_t kind;
  int level;
  char *text;
  rigor_table_t *table;
  json_t *notes;
  rigor_figure_fn figure;
  void *figure_arg;
  json_t *warnings; /* context: an array of strings */
  char *section;    /* the experiment the part belongs to (rigor_doc_section), or NULL */
} rigor_part_t;

typedef struct rigor_doc {
  char *title;
  rigor_part_t *parts;
  size_t n_parts, cap;
  /* The machine-readable form, built only when a writer asks for it. */
  json_t *(*json)(const void *arg);
  const void *json_arg;
  json_t *data; /* or the form itself, owned, when it is built with the document */
  /* What the parts and the JSON form borrow beyond the caller's data, freed with the document. */
  void *state;
  void (*state_free)(void *state);
  char *section;    /* given to the parts pushed from now on */
  char *main_table; /* the table data formats write when none is chosen; NULL: the first */
  char *data_table; /* the one chosen (rigor_doc_select) */
  /* Text: fit tables to this many terminal columns, leaving columns out and folding long text
   * cells; 0 for no limit. */
  int width;
} rigor_doc_t;

rigor_doc_t *rigor_doc_new(const char *title);
void rigor_doc_free(rigor_doc_t *doc);
void rigor_doc_heading(rigor_doc_t *doc, int level, const char *fmt, ...) RIGOR_PRINTF(3, 4);
void rigor_doc_text(rigor_doc_t *doc, const char *fmt, ...) RIGOR_PRINTF(2, 3);
void rigor_doc_table(rigor_doc_t *doc, rigor_table_t *table); /* takes it; NULL is ignored */
void rigor_doc_notes(rigor_doc_t *doc, json_t *notes);        /* takes it; empty is dropped */
/* Keeps a copy of the arg_size bytes at arg for the figure callback. */
void rigor_doc_figure(rigor_doc_t *doc, rigor_figure_fn fn, const void *arg, size_t arg_size);
/* Takes both; warnings (strings) may be NULL. */
void rigor_doc_context(rigor_doc_t *doc, rigor_table_t *fields, json_t *warnings);
/* The experiment the next parts belong to (data formats write it as a column); NULL: none. */
void rigor_doc_section(rigor_doc_t *doc, const char *name);
void rigor_doc_main_table(rigor_doc_t *doc, const char *name);

/* What the user chose to see. With `table`, only the tables of that name remain (headings and
 * context stay); with columns, those columns, in that order, of the tables named `table` (or
 * the main table). "context" names the context fields. RIGOR_EINVAL with the tables or columns
 * there are when a name matches none. */
int rigor_doc_select(rigor_doc_t *doc, const char *table, const char *const *columns,
                     size_t n_columns, char *err, size_t errlen);
/* The name of the table data formats write: the chosen one, else the main one, else the
 * first table's. */
const char *rigor_doc_data_table(const rigor_doc_t *doc);

#endif
