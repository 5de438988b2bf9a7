#include "metric_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool taken(const rigor_metric_t *all, uint32_t n, const char *name) {
  for (uint32_t i = 0; i < n; i++)
    if (all[i].name && strcmp(all[i].name, name) == 0) return true;
  return false;
}

int rigor_metric_set_build(const rigor_plugin_t *d, const void *params, rigor_metric_set_t *out,
                           char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  int declared = 0;
  if (d->declare_metrics) {
    out->declared = calloc(RIGOR_MAX_DECLARED_METRICS, sizeof *out->declared);
    if (!out->declared) {
      snprintf(err, errlen, "out of memory");
      return RIGOR_ENOMEM;
    }
    declared = d->declare_metrics(params, out->declared, RIGOR_MAX_DECLARED_METRICS);
    if (declared < 0) {
      snprintf(err, errlen, "plugin '%s': declare_metrics returned %d", d->name, declared);
      rigor_metric_set_free(out);
      return RIGOR_EPLUGIN;
    }
    if (declared > RIGOR_MAX_DECLARED_METRICS) declared = RIGOR_MAX_DECLARED_METRICS;
  }
  out->all = calloc(d->n_metrics + (uint32_t)declared + 1, sizeof *out->all);
  if (!out->all) {
    snprintf(err, errlen, "out of memory");
    rigor_metric_set_free(out);
    return RIGOR_ENOMEM;
  }
  for (uint32_t i = 0; i < d->n_metrics; i++)
    out->all[out->n++] = d->metrics[i];
  for (int i = 0; i < declared; i++) {
    rigor_metric_decl_t *m = &out->declared[i];
    bool terminated = memchr(m->name, '\0', sizeof m->name) &&
                      memchr(m->unit, '\0', sizeof m->unit) &&
                      memchr(m->help, '\0', sizeof m->help);
    bool direction = m->better == RIGOR_LOWER_IS_BETTER || m->better == RIGOR_HIGHER_IS_BETTER ||
                     m->better == RIGOR_NOT_A_FIGURE;
    if (!terminated || !m->name[0] || !direction || taken(out->all, out->n, m->name)) {
      snprintf(err, errlen, "plugin '%s' declares metric #%d %s%.47s%s, which is %s", d->name, i,
               terminated ? "'" : "", terminated ? m->name : "", terminated ? "'" : "",
               !terminated   ? "not NUL-terminated"
               : !m->name[0] ? "unnamed"
               : !direction  ? "neither lower nor higher is better, nor not a figure"
                             : "already a metric");
      rigor_metric_set_free(out);
      return RIGOR_EPLUGIN;
    }
    out->all[out->n++] = (rigor_metric_t){m->name, m->unit, m->better, m->help};
  }
  return 0;
}

void rigor_metric_set_free(rigor_metric_set_t *s) {
  free(s->all);
  free(s->declared);
  memset(s, 0, sizeof *s);
}

rigor_plugin_t rigor_metric_set_bind(const rigor_plugin_t *d, const rigor_metric_set_t *s) {
  rigor_plugin_t bound = *d;
  bound.metrics = s->all;
  bound.n_metrics = s->n;
  return bound;
}
