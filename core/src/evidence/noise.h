/* Noise burners (environment.noise): processes started by the parent before the run's child
 * and killed with SIGKILL on every path; they die with the parent too (PR_SET_PDEATHSIG).
 * Canonical settings: {"label": "idle", "burners": [{"kind": "cpu" | "membw", "cpus": [0]}]}. */
#ifndef RIGOR_NOISE_H
#define RIGOR_NOISE_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct rigor_noise rigor_noise_t;
int rigor_noise_check(const json_t *noise, char *err, size_t errlen);
int rigor_noise_start(const json_t *noise, rigor_noise_t **out, char *err, size_t errlen);
void rigor_noise_stop(rigor_noise_t *noise); /* kills, reaps, frees; NULL is fine */
int rigor_noise_pids(const rigor_noise_t *noise, pid_t *pids, int cap);
/* Kills every burner of every live rigor_noise_t; async-signal-safe (for signal handlers). */
void rigor_noise_kill_all(void);
/* One process per (burner, CPU). The run record's `noise` member:
 * {"label", "burners": [{"kind", "cpus": [cpu], "pid"}]}, one entry per burner process. */
json_t *rigor_noise_describe(const rigor_noise_t *noise);

#endif
