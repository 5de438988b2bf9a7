/* Writing HTML by hand: the pages stay self-contained, with no script and no network. */
#ifndef RIGOR_HTML_H
#define RIGOR_HTML_H

#include <stdio.h>

/* Writes s with <, >, & and " escaped; NULL writes nothing. */
void rigor_html_escape(FILE *out, const char *s);

#endif
