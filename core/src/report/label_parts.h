/* A label built from the parts that exist: "sort1 / default", never "sort1: default," or
 * ": cand vs base" where a part is missing. */
#ifndef RIGOR_LABEL_PARTS_H
#define RIGOR_LABEL_PARTS_H

#include <stddef.h>

/* Writes the parts that are neither NULL, empty nor "-" into buf, `sep` between them; an empty
 * string when none is. Returns the length written. */
size_t rigor_label_join(char *buf, size_t len, const char *sep, const char *const *parts, size_t n);

#endif
