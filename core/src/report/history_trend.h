/* The trend plot of one history series (history_trend.c), and the series' title it shares with
 * the history document. */
#ifndef RIGOR_HISTORY_TREND_H
#define RIGOR_HISTORY_TREND_H

#include <stddef.h>

#include "document.h"
#include "history.h"

/* "sort1 / default / time": the series' experiment, variant, point and figure, those that
 * exist: the trend plot's title and the document's heading of the series. */
void rigor_history_series_title(const rigor_series_t *s, char *buf, size_t len);
/* The trend plot of one series, as a figure of the document. */
void rigor_history_trend(rigor_doc_t *doc, const rigor_history_t *h, const rigor_series_t *s);

#endif
