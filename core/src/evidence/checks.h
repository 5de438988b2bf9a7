/* `rigor check`: what on this machine disturbs measurements. Most checks read the machine in an
 * instant; two (busy_processes, swap) compare /proc before and after a window. `rigor check`
 * sleeps through its window; `rigor run` opens one before its first run and closes it at a run
 * boundary, so the sampling overlaps the runs instead of delaying them. */
#ifndef RIGOR_CHECKS_H
#define RIGOR_CHECKS_H

#include <jansson.h>

/* How long `rigor check` samples, and how long `rigor run` keeps its window open at least
 * (unless the runs end first). */
#define RIGOR_ENV_WINDOW_S 0.25

/* An array of {"check", "status": "ok"|"warn"|"unavailable", "detail", "advice", "why"};
 * "unavailable" where this machine does not expose what the check reads. */
json_t *rigor_env_check(void);

/* The same list without waiting: busy_processes and swap have status "pending" until
 * rigor_env_checks_settle puts a window's results in their place. */
json_t *rigor_env_check_pending(void);

typedef struct rigor_env_window rigor_env_window_t;

/* Opens a sampling window: every other process's CPU time and the swap counters, now. NULL when
 * out of memory. */
rigor_env_window_t *rigor_env_window_open(void);
/* Seconds since the window opened. */
double rigor_env_window_elapsed(const rigor_env_window_t *w);
/* Closes and frees the window: the busy_processes and swap checks over the time it was open
 * (busy_processes is "unavailable" for a window too short for CPU-time ticks). */
json_t *rigor_env_window_close(rigor_env_window_t *w);

/* Replaces the entries of `list` that `sampled` has a check of the same name for. */
void rigor_env_checks_settle(json_t *list, const json_t *sampled);

/* For tests: `root` prefixes every /sys and /proc path; window_s is how long load and swap are
 * sampled. */
json_t *rigor__env_check_at(const char *root, double window_s);
rigor_env_window_t *rigor__env_window_open_at(const char *root);

#endif
