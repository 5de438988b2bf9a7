/* A program's own figures: group 1 of a regex in what it printed. */
#ifndef EXEC_METRICS_H
#define EXEC_METRICS_H

#include <regex.h>
#include <stddef.h>

#include "exec_spec.h"

typedef struct exec_metric {
  const exec_metric_spec_t *spec;
  regex_t re;
} exec_metric_t;

/* Compiles every metric of s (the spec stays alive as long as the metrics). */
int exec_metrics_compile(const exec_spec_t *s, exec_metric_t **out, char *err, size_t errlen);
void exec_metrics_free(exec_metric_t *m, size_t n);
/* The number in group 1 of the first match in text[0, len) (NUL bytes are output like any other),
 * NaN when nothing matches or it is not a number. */
double exec_metric_value(const exec_metric_t *m, const char *text, size_t len);

#endif
