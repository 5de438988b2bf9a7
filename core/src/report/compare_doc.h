/* A comparison across files (analysis/compare.h) as a document and as JSON. */
#ifndef RIGOR_COMPARE_DOC_H
#define RIGOR_COMPARE_DOC_H

#include <jansson.h>

#include "compare.h"
#include "document.h"

/* The comparison as a document for any writer; it borrows c. */
rigor_doc_t *rigor_comparison_doc(const rigor_comparison_t *c);
json_t *rigor_comparison_json(const rigor_comparison_t *c, const rigor_compare_opts_t *opts);

#endif
