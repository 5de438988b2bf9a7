/* A fleet screen (analysis/screen.h) as a document: one line per verdict that matters (the slow
 * and fast nodes, the failed ones), then a table of every node against the fleet, and the JSON
 * form of the same. */
#ifndef RIGOR_SCREEN_DOC_H
#define RIGOR_SCREEN_DOC_H

#include "document.h"
#include "screen.h"

/* The document borrows s, which must outlive it. */
rigor_doc_t *rigor_screen_doc(const rigor_screen_t *s, const char *experiment);

#endif
