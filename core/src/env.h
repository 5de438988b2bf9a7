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
#include <stdint.h>
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

/* Environment check: an array of {"check", "status": "ok"|"warn", "detail", "advice"}.
 * Each entry also has "why" (the reason it matters); status is "unavailable" where this machine
 * does not expose what the check reads. */
json_t *rigor_env_check(void);

/* ---- additions --------------------------------------------------------------------------- */

/* OMP_PLACES for the bound CPUs, one place per CPU ("{0},{2}"), so that with OMP_PROC_BIND=close
 * OpenMP thread i runs on the i-th CPU. Returns 0, or RIGOR_ERANGE when `cap` is too small. */
int rigor_affinity_omp_places(const int *cpus, int n_cpus, char *buf, size_t cap);

/* One process per (burner, CPU). The run record's `noise` member:
 * {"label", "burners": [{"kind", "cpus": [cpu], "pid"}]}, one entry per burner process. */
json_t *rigor_noise_describe(const rigor_noise_t *noise);

/* Validates a telemetry settings object (null means the defaults). */
int rigor_telemetry_check(const json_t *telemetry_cfg, char *err, size_t errlen);
/* What the sampler can read on this machine:
 * {"cpu_freq": "cpufreq"|"cpuinfo"|"unavailable", "temperature": "thermal+hwmon"|"thermal"|
 *  "hwmon"|"unavailable", "load": "loadavg"|"unavailable"}. */
json_t *rigor_telemetry_sources(void);

/* Signal names. A clock signal is any whose name ends in RIGOR_CLOCK_SUFFIX: the sampler's
 * "cpu<N>_mhz" and, by convention, plugin clocks such as "gpu0_sm_mhz". */
#define RIGOR_CLOCK_SUFFIX            "_mhz"
#define RIGOR_CLOCK_THRESHOLD_DEFAULT 0.8

/* Low-clock flag. `summaries` is an array with one telemetry summary per run (null entries are
 * runs without telemetry). For each clock signal the reference is the median, over the runs that
 * have it, of the per-run medians; run i is flagged (flagged[i] = true) when its minimum of some
 * clock signal is below threshold x reference. Returns the number of runs flagged (or
 * RIGOR_EINVAL); when `findings` is not NULL it receives an array of
 * {"run", "signal", "min", "reference", "threshold"}, one per (run, signal) below. */
int rigor_telemetry_flag_low_clock(const json_t *summaries, double threshold, bool *flagged,
                                   json_t **findings);

/* Measurement-bias control (environment.randomize_env): a value of 0..RIGOR_ENV_PAD_MAX
 * characters, its length drawn from the project PRNG, identical for the same (seed, run). The
 * runner exports it as RIGOR_ENV_PAD_NAME in the run's environment and records `len`.
 * `cap` must exceed RIGOR_ENV_PAD_MAX (RIGOR_ERANGE otherwise). */
#define RIGOR_ENV_PAD_NAME "RIGOR_ENV_PAD"
#define RIGOR_ENV_PAD_MAX  4095
int rigor_env_pad(uint64_t seed, uint32_t run, char *buf, size_t cap, size_t *len);

/* Internal (shared between the environment files and their tests). `root` prefixes every
 * /sys and /proc path; "" is the running system. */
/* Checks that `cpus` is a non-empty array of distinct CPUs of this machine; `what` prefixes errors.
 */
int rigor__cpu_list_check(const json_t *cpus, const char *what, char *err, size_t errlen);
int rigor__read_line(const char *root, const char *path, char *buf, size_t cap);
/* {"driver", "governor" (the one name, "mixed" or null), "governors" ({name: [cpus]}), "boost"
 * (true, false or null), "boost_source"} from cpufreq under root. */
json_t *rigor__cpufreq_state(const char *root);
json_t *rigor__identity_host_at(const char *root);
json_t *rigor__env_check_at(const char *root, double window_s);
int rigor__telemetry_start_at(const char *root, const json_t *telemetry_cfg, const int *cpus,
                              int n_cpus, rigor_telemetry_hook_fn hook, void *hook_arg,
                              rigor_telemetry_t **out);

#endif
