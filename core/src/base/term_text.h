/* Text for a terminal: control characters that came from a file (a label, a command, a field of
 * the results) are shown escaped ("\r", "\x1b"), never sent raw, where they could move the
 * cursor, erase what is shown or forge a line. */
#ifndef RIGOR_TERM_TEXT_H
#define RIGOR_TERM_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Copies `s` into `out` (cut to fit `cap`, always terminated) with every control character
 * escaped: newline, carriage return and tab as \n \r \t, the other C0 characters, DEL and the
 * C1 characters (U+0080 to U+009F) as \xHH. Returns `out`; NULL `s` gives "". */
const char *rigor_term_text(const char *s, char *out, size_t cap);

/* A stream that writes to `under` what it is given, with every control character but the
 * newline escaped as rigor_term_text does: for writers whose own output is lines of text.
 * Closing it flushes it and leaves `under` open. NULL when it cannot be made. */
FILE *rigor_term_guard(FILE *under);

#endif
