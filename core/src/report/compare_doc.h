/* A comparison as a document: across files (analysis/compare.h), and of each node against the
 * fleet in a screen (analysis/screen.h): one line per verdict that matters (the slow and fast
 * nodes, the failed ones), then a table of every node, and the JSON form of the same. */
#ifndef RIGOR_COMPARE_DOC_H
#define RIGOR_COMPARE_DOC_H

#include <jansson.h>

#include "compare.h"
#include "document.h"
#include "screen.h"

/* The comparison as a document for any writer; it borrows c. */
rigor_doc_t *rigor_comparison_doc(const rigor_comparison_t *c);
json_t *rigor_comparison_json(const rigor_comparison_t *c, const rigor_compare_opts_t *opts);

/* The screen as a document; it borrows s, which must outlive it. */
rigor_doc_t *rigor_screen_doc(const rigor_screen_t *s, const char *experiment);

#endif
