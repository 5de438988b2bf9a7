/* The history of the store (analysis/history.h) as a document, JSON and trend plots. */
#ifndef RIGOR_HISTORY_DOC_H
#define RIGOR_HISTORY_DOC_H

#include <jansson.h>

#include "document.h"
#include "history.h"
#include "history_trend.h"

/* The history as a document for any writer (history_doc.c); it borrows h. */
rigor_doc_t *rigor_history_doc(const rigor_history_t *h);

/* The history of the store as JSON: the document's data, and what `rigor history --format
 * json` prints. */
json_t *rigor_history_json(const rigor_history_t *h);

#endif
