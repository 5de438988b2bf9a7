#include "progress.h"

#include <math.h>
#include <stdio.h>

#include "term_text.h"
#include "units.h"

/* The time left: the mean run so far times the runs left, and never past the deadline (an
 * adaptive experiment's total is its max, which the deadline usually cuts short). */
static double eta_s(const rigor_progress_t *p, uint32_t finished) {
  uint32_t left = p->total > finished ? p->total - finished : 0;
  double eta = p->done ? p->elapsed_s / p->done * left : 0;
  if (p->job->deadline_s > 0) eta = fmin(eta, fmax(p->job->deadline_s - p->elapsed_s, 0));
  return eta;
}

static void run_started(const rigor_progress_view_t *v, const rigor_progress_t *p) {
  uint32_t per_block = p->job->n_arms ? p->job->n_cells : p->job->n_variants;
  uint32_t k = p->resumed + p->done + 1, n = per_block ? per_block : 1;
  char eta[32];
  rigor_format_clock(eta, sizeof eta, eta_s(p, k - 1));
  if (v->line) {
    fprintf(stderr, "\r\033[K[%u/%u] %s: %s  ETA %s", k, p->total, p->job->name, p->label, eta);
    fflush(stderr);
  } else if (v->verbose) {
    fprintf(stderr, "rigor: [%u/%u] %s %s: starts (run %u, block %u, position %u)\n", k, p->total,
            p->job->name, p->label, p->run, p->run / n, p->run % n);
  }
}

static void run_ended(const rigor_progress_view_t *v, const rigor_progress_t *p) {
  bool ok = p->status == RIGOR_RUN_OK;
  const char *status = rigor_run_status_names[p->status];
  if (v->line) {
    if (!ok)
      fprintf(stderr, "\r\033[Krigor: %s run %u (%s): %s: %s\n", p->job->name, p->run, p->label,
              status, p->reason ? p->reason : "-");
    return;
  }
  uint32_t k = p->resumed + p->done;
  char elapsed[32], eta[32];
  rigor_format_clock(elapsed, sizeof elapsed, p->elapsed_s);
  rigor_format_clock(eta, sizeof eta, eta_s(p, k));
  fprintf(stderr, "rigor: [%u/%u] %s %s: %s in %.2f s%s%s%s; %s elapsed, ETA %s\n", k, p->total,
          p->job->name, p->label, status, p->run_s, p->reason && (!ok || v->verbose) ? " (" : "",
          p->reason && (!ok || v->verbose) ? p->reason : "",
          p->reason && (!ok || v->verbose) ? ")" : "", elapsed, eta);
}

/* A run still going: on a terminal its line again, with the cycles done; elsewhere a line of its
 * own, so that a log shows life between the runs' lines. */
static void run_alive(const rigor_progress_view_t *v, const rigor_progress_t *p) {
  uint32_t k = p->resumed + p->done + 1;
  char elapsed[32], running[32];
  rigor_format_clock(elapsed, sizeof elapsed, p->elapsed_s);
  rigor_format_clock(running, sizeof running, p->run_s);
  if (v->line) {
    char eta[32];
    rigor_format_clock(eta, sizeof eta, eta_s(p, k - 1));
    fprintf(stderr, "\r\033[K[%u/%u] %s: %s  %u/%u cycles  ETA %s", k, p->total, p->job->name,
            p->label, p->cycles_done, p->cycles, eta);
    fflush(stderr);
    return;
  }
  fprintf(stderr, "rigor: [%u/%u] %s %s: running %s, %u/%u cycles done; %s elapsed\n", k, p->total,
          p->job->name, p->label, running, p->cycles_done, p->cycles, elapsed);
}

void rigor_progress_draw(void *arg, const rigor_progress_t *event) {
  const rigor_progress_view_t *v = arg;
  if (v->quiet) return;
  /* A label or a run's reason from a file must not move the cursor or forge a line: its control
   * characters are shown escaped. */
  rigor_progress_t shown = *event;
  const rigor_progress_t *p = &shown;
  char label[1024], reason[2048];
  if (event->label) shown.label = rigor_term_text(event->label, label, sizeof label);
  if (event->reason) shown.reason = rigor_term_text(event->reason, reason, sizeof reason);
  switch (p->event) {
  case RIGOR_PROGRESS_RUN_START:
    run_started(v, p);
    break;
  case RIGOR_PROGRESS_RUN_END:
    run_ended(v, p);
    break;
  case RIGOR_PROGRESS_RUN_ALIVE:
    run_alive(v, p);
    break;
  case RIGOR_PROGRESS_JOB_END:
    if (v->line) fprintf(stderr, "\r\033[K");
    if (p->deadline)
      fprintf(stderr, "rigor: %s: the deadline of %g s passed; %u runs -> %s\n", p->job->name,
              p->job->deadline_s, p->done, p->job->output);
    else
      fprintf(stderr, "rigor: %s: %u runs -> %s\n", p->job->name, p->done, p->job->output);
    break;
  }
  if (!v->line) fflush(stderr);
}
