#include <stdio.h>
#include <stdlib.h>

#include "context.h"
#include "report.h"

/* What the document borrows: the analysis and the contrasts of each experiment. */
typedef struct report_state {
  const rigor_analysis_t *a;
  rigor_exp_contrasts_t *contrasts; /* one per experiment */
} report_state_t;

static void state_free(void *arg) {
  report_state_t *s = arg;
  for (size_t x = 0; s && x < s->a->n_exps; x++)
    rigor_exp_contrasts_free(&s->contrasts[x]);
  if (s) free(s->contrasts);
  free(s);
}

static json_t *report_json(const void *arg) {
  const report_state_t *s = arg;
  return rigor_report_json(s->a, s->contrasts);
}

rigor_doc_t *rigor_report_doc(const rigor_analysis_t *a, const rigor_report_opts_t *o) {
  rigor_doc_t *doc = rigor_doc_new("rigor report");
  report_state_t *s = calloc(1, sizeof *s);
  if (s) {
    s->a = a;
    s->contrasts = calloc(a->n_exps ? a->n_exps : 1, sizeof *s->contrasts);
  }
  if (!doc || !s || !s->contrasts) {
    if (s) free(s->contrasts);
    free(s);
    rigor_doc_free(doc);
    return NULL;
  }
  doc->state = s;
  doc->state_free = state_free;
  doc->json = report_json;
  doc->json_arg = s;
  rigor_doc_heading(doc, 1, "rigor report");
  rigor_doc_main_table(doc, "statistics");
  /* The answers first: one line per contrast of every experiment, then the tables. */
  size_t n_answers = 0;
  for (size_t x = 0; x < a->n_exps; x++)
    if (rigor_report_contrasts(&a->exps[x], o->refs, o->n_refs, &s->contrasts[x]) == 0)
      for (size_t i = 0; i < s->contrasts[x].n; i++)
        n_answers += s->contrasts[x].sets[i]->n;
  if (n_answers) {
    rigor_doc_heading(doc, 2, "answers");
    for (size_t x = 0; x < a->n_exps; x++) {
      char prefix[300];
      snprintf(prefix, sizeof prefix, "%s: ", a->exps[x].name);
      for (size_t i = 0; i < s->contrasts[x].n; i++)
        rigor_contrasts_answers(doc, s->contrasts[x].sets[i], a->n_exps > 1 ? prefix : NULL);
    }
  }
  rigor_page_units_t units;
  rigor_page_units_of(a, &units);
  for (size_t x = 0; x < a->n_exps; x++) {
    const rigor_exp_analysis_t *e = &a->exps[x];
    rigor_doc_section(doc, e->name);
    const char *arms = json_string_value(json_object_get(
        json_object_get(json_object_get(e->record, "schedule"), "interleave"), "axis"));
    rigor_doc_heading(doc, 2, "experiment %s (%s)%s%s%s%s%s", e->name, e->source,
                      e->design ? ", order " : "", e->design ? e->design : "",
                      arms ? ", the levels of " : "", arms ? arms : "",
                      arms ? " interleaved in every run" : "");
    rigor_context_doc(doc, e);
    rigor_table_t *tables[16];
    size_t n = rigor_report_tables(e, o->by, tables, 16);
    for (size_t i = 0; i < n; i++) {
      rigor_doc_table(doc, tables[i]);
      if (i == 0) rigor_report_curves(doc, e, &units); /* the statistics' picture, beside them */
    }
    for (size_t i = 0; i < s->contrasts[x].n; i++)
      rigor_contrasts_details(doc, s->contrasts[x].sets[i]);
    rigor_doc_notes(doc, rigor_report_notes(a, e));
    rigor_report_figures(doc, e, &units);
  }
  return doc;
}
