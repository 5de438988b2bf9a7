/* What `rigor run` shows while runs go on. */
#ifndef RIGOR_PROGRESS_H
#define RIGOR_PROGRESS_H

#include <stdbool.h>

#include "runner.h"

typedef struct rigor_progress_view {
  bool line;  /* a progress line on stderr (a terminal) */
  bool quiet; /* nothing but errors */
} rigor_progress_view_t;

/* A rigor_run_opts_t.progress callback; arg is a rigor_progress_view_t. */
void rigor_progress_draw(void *arg, const rigor_progress_t *p);

#endif
