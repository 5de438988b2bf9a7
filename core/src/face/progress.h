/* What `rigor run` shows while runs go on: on a terminal, one line redrawn as runs start and
 * cycles finish; on anything else (a CI log), one line per finished run and, while a run goes
 * on, a heartbeat line at a fixed interval. */
#ifndef RIGOR_PROGRESS_H
#define RIGOR_PROGRESS_H

#include <stdbool.h>

#include "runner.h"

typedef struct rigor_progress_view {
  bool line;    /* redraw one progress line on stderr (a terminal) */
  bool quiet;   /* nothing but errors */
  bool verbose; /* a line as each run starts, and one as it ends, on a terminal too */
} rigor_progress_view_t;

/* A rigor_run_opts_t.progress callback; arg is a rigor_progress_view_t. Each finished run's line
 * reads "rigor: [k/N] EXPERIMENT VARIANT: STATUS in T; ELAPSED elapsed, ETA LEFT", with the
 * reason after a status other than ok. A heartbeat reads "rigor: [k/N] EXPERIMENT VARIANT:
 * running T, C/M cycles done; ELAPSED elapsed". */
void rigor_progress_draw(void *arg, const rigor_progress_t *p);

#endif
