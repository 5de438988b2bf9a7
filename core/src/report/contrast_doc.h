/* Contrasts inside one file (analysis/contrast.h) as sentences, JSON and document parts. */
#ifndef RIGOR_CONTRAST_DOC_H
#define RIGOR_CONTRAST_DOC_H

#include <jansson.h>
#include <stddef.h>

#include "contrast.h"
#include "document.h"

/* "blocked ran 1.35x faster than naive [1.31, 1.39], 12 blocks, p 3e-05" */
void rigor_contrast_sentence(const rigor_contrast_t *c, char *buf, size_t len);
/* An array with one object per contrast (docs/results-format.md). */
json_t *rigor_contrasts_json(const rigor_contrasts_t *c);
/* The contrasts table, the sentences and (for writers that draw) a forest plot; the document
 * borrows c, which must outlive it. Nothing is added for an empty set. */
void rigor_contrasts_doc(rigor_doc_t *doc, const rigor_contrasts_t *c);

#endif
