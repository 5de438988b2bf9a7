/* Reasons built up clause by clause: "CAND: CV 6.41% > 5.00%; BASE: 2 runs". */
#ifndef RIGOR_CLAUSES_H
#define RIGOR_CLAUSES_H

#include <stddef.h>

/* Appends one printf-formatted clause to the NUL-terminated buf (capacity len), after "; " when
 * buf already holds one; a clause that does not fit is cut, and a full buf is left alone. */
void rigor_clause_append(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
