#include "progress.h"

#include <stdio.h>

void rigor_progress_draw(void *arg, const rigor_progress_t *p) {
  const rigor_progress_view_t *v = arg;
  switch (p->event) {
  case RIGOR_PROGRESS_RUN_START:
    if (v->line) {
      double eta = p->done ? p->elapsed_s / p->done * (p->total - p->run) : 0;
      fprintf(stderr, "\r\033[K[%u/%u] %s: %s  ETA %d:%02d", p->run + 1, p->total, p->job->name,
              p->label, (int)eta / 60, (int)eta % 60);
      fflush(stderr);
    }
    break;
  case RIGOR_PROGRESS_RUN_END:
    if (p->status != RIGOR_RUN_OK && !v->quiet)
      fprintf(stderr, "%srigor: %s run %u (%s): %s: %s\n", v->line ? "\r\033[K" : "", p->job->name,
              p->run, p->label, rigor_run_status_names[p->status], p->reason ? p->reason : "-");
    break;
  case RIGOR_PROGRESS_JOB_END:
    if (v->line) fprintf(stderr, "\r\033[K");
    if (!v->quiet && p->deadline)
      fprintf(stderr, "rigor: %s: the deadline of %g s passed; %u runs -> %s\n", p->job->name,
              p->job->deadline_s, p->done, p->job->output);
    else if (!v->quiet)
      fprintf(stderr, "rigor: %s: %u runs -> %s\n", p->job->name, p->done, p->job->output);
    break;
  }
}
