/* The canonical text of a JSON document: what rigor hashes and compares. */
#ifndef RIGOR_CANONICAL_H
#define RIGOR_CANONICAL_H

#include <jansson.h>

/* Sorted keys, compact, reals with 15 significant digits. Caller frees. */
char *rigor_canonical_dump(const json_t *doc);

#endif
