/* "Did you mean": the closest of a list of words, for error messages. */
#ifndef RIGOR_SUGGEST_H
#define RIGOR_SUGGEST_H

#include <stddef.h>

/* The candidate within a small edit distance of `word` (1 for words of up to 4 characters,
 * otherwise a third of the word's length, plus one; swapping two neighbours counts 1), or NULL.
 * Stops at n or a NULL entry. */
const char *rigor_closest(const char *word, const char *const *candidates, size_t n);

/* " (did you mean 'X'?)" for the closest entry X of `list`, written as messages list names
 * ("a, b, c"), or "" when none is close: the tail of an error that named the list. */
const char *rigor_did_you_mean(const char *word, const char *list, char *out, size_t cap);

#endif
