/* The history of the store (analysis/history.h) as a document, JSON and trend plots. */
#ifndef RIGOR_HISTORY_DOC_H
#define RIGOR_HISTORY_DOC_H

#include <jansson.h>

#include "document.h"
#include "history.h"

/* The history as a document for any writer (history_doc.c); it borrows h. */
rigor_doc_t *rigor_history_doc(const rigor_history_t *h);
json_t *rigor_history_json(const rigor_history_t *h);
/* "sort1 / default / time": the series' experiment, variant, point and figure, those that
 * exist: the trend plot's title and the document's heading of the series (history_trend.c). */
void rigor_history_series_title(const rigor_series_t *s, char *buf, size_t len);
/* The trend plot of one series, as a figure of the document (history_trend.c). */
void rigor_history_trend(rigor_doc_t *doc, const rigor_history_t *h, const rigor_series_t *s);

#endif
