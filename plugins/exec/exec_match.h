/* Output matched as bytes: a regex runs over all the kept output, a NUL byte included, where a C
 * string would end at the first NUL (glibc's REG_STARTEND bounds the text by its length). */
#ifndef EXEC_MATCH_H
#define EXEC_MATCH_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether `re` matches somewhere in text[0, len). */
bool exec_match(const regex_t *re, const char *text, size_t len);
/* As exec_match, filling g[0, n) with offsets into text (n >= 1). */
bool exec_match_groups(const regex_t *re, const char *text, size_t len, regmatch_t *g, size_t n);

#endif
