#include "report.h"

static json_t *report_json(const void *arg) {
  return rigor_report_json(arg);
}

rigor_doc_t *rigor_report_doc(const rigor_analysis_t *a, rigor_by_t by) {
  rigor_doc_t *doc = rigor_doc_new("rigor report");
  if (!doc) return NULL;
  doc->json = report_json;
  doc->json_arg = a;
  rigor_doc_heading(doc, 1, "rigor report");
  for (size_t x = 0; x < a->n_exps; x++) {
    const rigor_exp_analysis_t *e = &a->exps[x];
    rigor_doc_heading(doc, 2, "experiment %s (%s)%s%s", e->name, e->source,
                      e->design ? ", order " : "", e->design ? e->design : "");
    rigor_table_t *tables[16];
    size_t n = rigor_report_tables(e, by, tables, 16);
    for (size_t i = 0; i < n; i++)
      rigor_doc_table(doc, tables[i]);
    rigor_doc_notes(doc, rigor_report_notes(a, e));
    rigor_report_figures(doc, e);
  }
  return doc;
}
