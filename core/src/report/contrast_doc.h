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

/* For interleaved arms: both levels of variance (one window pair, the run estimate between
 * runs), which of them more data should add to, and the order effect, warned about when it
 * exceeds half the threshold. */
void rigor_contrast_arms_line(const rigor_contrast_t *c, double threshold, char *buf, size_t len);

/* The answers alone (the axis line and a sentence per contrast), each axis line after prefix
 * ("experiment NAME: "; NULL for none); and the details alone (the table and the forest plot):
 * a report puts its answers first and its details beside the experiment's tables. */
void rigor_contrasts_answers(rigor_doc_t *doc, const rigor_contrasts_t *c, const char *prefix);
void rigor_contrasts_details(rigor_doc_t *doc, const rigor_contrasts_t *c);

#endif
