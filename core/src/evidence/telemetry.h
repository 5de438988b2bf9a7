/* The telemetry sampler thread inside a run's child (environment.telemetry, which
 * catalog/environment_settings.h parses: the sampler takes its interval and raw flag as values).
 * Signal names follow telemetry_names.h. */
#ifndef RIGOR_TELEMETRY_H
#define RIGOR_TELEMETRY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "rigor/plugin.h"

typedef struct rigor_telemetry rigor_telemetry_t;
typedef int (*rigor_telemetry_hook_fn)(void *arg, rigor_telemetry_value_t *out, int cap);
/* Samples every interval_s (1 ms to 3600 s; RIGOR_EINVAL otherwise), keeping each sample when
 * `raw`. */
int rigor_telemetry_start(double interval_s, bool raw, const int *cpus, int n_cpus,
                          rigor_telemetry_hook_fn hook, void *hook_arg, rigor_telemetry_t **out);
/* Stops the sampler. Returns the summary {signal: {min, median, max, n}}; when raw samples were
 * asked for, *raw receives an array of {t, signal: value...} objects. */
json_t *rigor_telemetry_stop(rigor_telemetry_t *t, json_t **raw);
/* What the sampler can read on this machine:
 * {"cpu_freq": "cpufreq"|"cpuinfo"|"unavailable", "temperature": "thermal+hwmon"|"thermal"|
 *  "hwmon"|"unavailable", "load": "loadavg"|"unavailable"}. */
json_t *rigor_telemetry_sources(void);

/* For tests: `root` prefixes every /sys and /proc path; "" is the running system. */
int rigor__telemetry_start_at(const char *root, double interval_s, bool raw, const int *cpus,
                              int n_cpus, rigor_telemetry_hook_fn hook, void *hook_arg,
                              rigor_telemetry_t **out);

#endif
