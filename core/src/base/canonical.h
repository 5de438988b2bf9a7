/* The canonical text of a JSON document: what rigor hashes and compares. */
#ifndef RIGOR_CANONICAL_H
#define RIGOR_CANONICAL_H

#include <jansson.h>

/* Sorted keys, compact, reals with 15 significant digits. Caller frees. */
char *rigor_canonical_dump(const json_t *doc);

/* SHA-256 (hex) of that text: what identifies a config, a base or a record. Returns 0 or
 * RIGOR_ENOMEM. */
int rigor_canonical_sha256(const json_t *doc, char hex[65]);

#endif
