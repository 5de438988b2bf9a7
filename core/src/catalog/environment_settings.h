/* The core's environment settings (DESIGN.md, environment control; docs/environment.md): what
 * the config language writes under a variant's `environment` and the runner and its child obey,
 * parsed once into this struct. The binding and the burners stay in their canonical JSON form,
 * the one the evidence part checks and applies (evidence/affinity.h, evidence/noise.h). */
#ifndef RIGOR_ENVIRONMENT_SETTINGS_H
#define RIGOR_ENVIRONMENT_SETTINGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* environment.telemetry: the sampler inside each run's child (evidence/telemetry.h). */
typedef struct rigor_telemetry_settings {
  double interval_s;      /* default 0.1 */
  bool raw;               /* default false: only the summary goes into the run record */
  double clock_threshold; /* default 0.8: runs below this fraction of the median clock are
                           * flagged low_clock (read back by the judge from the results) */
} rigor_telemetry_settings_t;

/* JSON member names in `environment`: affinity, noise, randomize_env, telemetry. */
typedef struct rigor_environment {
  /* environment.affinity: {"cpus": [...]} or {"numa": N}; NULL leaves the binding as it is.
   * Borrowed from the settings object it was read from. */
  const json_t *affinity;
  /* environment.noise: {"label", "burners": [...]}; NULL starts none. Borrowed likewise. */
  const json_t *noise;
  bool randomize_env; /* pad each run's environment by a drawn length (evidence/envpad.h) */
  rigor_telemetry_settings_t telemetry;
} rigor_environment_t;

void rigor_environment_defaults(rigor_environment_t *e);
/* Reads a canonical environment object (missing members, or a missing object, keep their
 * defaults); the struct
 * borrows its affinity and noise from `obj`, which must outlive it. */
int rigor_environment_from_json(const json_t *obj, rigor_environment_t *e, char *err,
                                size_t errlen);

#endif
