/* Environment control and evidence: affinity, noise burners, telemetry, identity, checks.
 *
 * Canonical `environment` settings object (see experiment.h):
 *   affinity:  null | {"cpus": [0, 2]} | {"numa": 1}
 *   noise:     {"label": "idle", "burners": []} where each burner is
 *              {"kind": "cpu" | "membw", "cpus": [0]}
 *   randomize_env: bool
 *   telemetry: {"interval": 0.1, "raw": false, "clock_threshold": 0.8}
 */
#ifndef RIGOR_ENV_H
#define RIGOR_ENV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "rigor/plugin.h"

/* Checks an affinity object against this machine without applying it (config validation). */
int rigor_affinity_check(const json_t *affinity, char *err, size_t errlen);
/* Binds the calling process (all future threads) to the affinity; writes the CPUs actually
 * obtained. A null affinity leaves the binding as it is and reports the current one. */
int rigor_affinity_apply(const json_t *affinity, int *cpus, int cap, int *n_cpus, char *err,
                         size_t errlen);

/* Noise burners are processes started by the parent before the run's child and killed with
 * SIGKILL on every path; they die with the parent too (PR_SET_PDEATHSIG). */
typedef struct rigor_noise rigor_noise_t;
int rigor_noise_check(const json_t *noise, char *err, size_t errlen);
int rigor_noise_start(const json_t *noise, rigor_noise_t **out, char *err, size_t errlen);
void rigor_noise_stop(rigor_noise_t *noise); /* kills, reaps, frees; NULL is fine */
int rigor_noise_pids(const rigor_noise_t *noise, pid_t *pids, int cap);
/* Kills every burner of every live rigor_noise_t; async-signal-safe (for signal handlers). */
void rigor_noise_kill_all(void);

/* Telemetry sampler thread inside the run's child. */
typedef struct rigor_telemetry rigor_telemetry_t;
typedef int (*rigor_telemetry_hook_fn)(void *arg, rigor_telemetry_value_t *out, int cap);
int rigor_telemetry_start(const json_t *telemetry_cfg, const int *cpus, int n_cpus,
                          rigor_telemetry_hook_fn hook, void *hook_arg, rigor_telemetry_t **out);
/* Stops the sampler. Returns the summary {signal: {min, median, max, n}}; when raw samples were
 * asked for, *raw receives an array of {t, signal: value...} objects. */
json_t *rigor_telemetry_stop(rigor_telemetry_t *t, json_t **raw);

/* Host identity: host, kernel, CPU model, topology, caches, NUMA, governor, boost, SMT, ASLR,
 * compiler and flags, rigor version and git hash, relevant environment variables. */
json_t *rigor_identity_host(void);
/* SHA-256 (hex) of a file, e.g. a plugin .so. */
int rigor_file_sha256(const char *path, char out[65]);

/* Environment check: an array of {"check", "status": "ok"|"warn", "detail", "advice"}. */
json_t *rigor_env_check(void);

#endif
