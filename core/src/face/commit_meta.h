/* The commit an import measured: read from the git working tree (git runs as a process), or
 * given on the command line. */
#ifndef RIGOR_COMMIT_META_H
#define RIGOR_COMMIT_META_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rigor_commit_meta {
  char sha[128];    /* empty when unknown */
  char date[32];    /* ISO-8601 UTC with milliseconds, empty when unknown */
  char branch[256]; /* empty when unknown or detached */
  int dirty;        /* 1 dirty, 0 clean, -1 unknown */
  bool from_git;    /* the working tree answered */
} rigor_commit_meta_t;

/* With commit NULL: HEAD of the working tree in the current folder, its commit date, branch and
 * whether tracked files differ from it; nothing (sha empty) outside a working tree. With a
 * commit: that name, resolved to the full hash and dated when the working tree knows it, kept
 * as given otherwise; dirty is then unknown. */
void rigor_commit_meta_read(const char *commit, rigor_commit_meta_t *out);

/* An ISO-8601 date ("2024-05-01", "2024-05-01T12:30[:45][.123][Z|+02:00]") or "@SECONDS" as UTC
 * "YYYY-MM-DDTHH:MM:SS.000Z", the form import times are kept in, so that dates sort as text.
 * Returns false for anything else, for a day the month lacks, and outside the years 1 to 9999
 * (where the text would no longer sort as time). */
bool rigor_date_normalize(const char *text, char out[32]);

#endif
