/* The metrics a run records: the plugin's static table, then those its declare_metrics hook
 * declares for the run's params. */
#ifndef RIGOR_METRIC_SET_H
#define RIGOR_METRIC_SET_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "rigor/plugin.h"

#define RIGOR_MAX_DECLARED_METRICS 64

typedef struct rigor_metric_set {
  rigor_metric_t *all; /* n entries; the declared ones point into `declared` */
  uint32_t n;
  rigor_metric_decl_t *declared;
} rigor_metric_set_t;

/* `params` is a filled params struct. Refuses a declared name that is empty, not NUL-terminated,
 * or already taken, naming it in err. */
int rigor_metric_set_build(const rigor_plugin_t *d, const void *params, rigor_metric_set_t *out,
                           char *err, size_t errlen);
void rigor_metric_set_free(rigor_metric_set_t *s);
/* d with its metrics table replaced by the set's, for the code that records samples. */
rigor_plugin_t rigor_metric_set_bind(const rigor_plugin_t *d, const rigor_metric_set_t *s);

#endif
