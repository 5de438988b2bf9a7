#include "stream_driver.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const rigor_param_t *lookup(const rigor_plugin_t *d, const char *name) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (strcmp(d->params[i].name, name) == 0) return &d->params[i];
  fprintf(stderr, "no param %s\n", name);
  abort();
}

static void set_value(const rigor_param_t *p, void *params, const char *text) {
  char *field = (char *)params + p->offset;
  switch (p->type) {
  case RIGOR_PARAM_BOOL:
    *(bool *)field = strcmp(text, "true") == 0;
    break;
  case RIGOR_PARAM_INT:
    *(int64_t *)field = strtoll(text, NULL, 10);
    break;
  case RIGOR_PARAM_UINT:
  case RIGOR_PARAM_SIZE:
    *(uint64_t *)field = strtoull(text, NULL, 10);
    break;
  case RIGOR_PARAM_DOUBLE:
    *(double *)field = strtod(text, NULL);
    break;
  case RIGOR_PARAM_STRING:
  case RIGOR_PARAM_JSON:
    *(const char **)field = text;
    break;
  case RIGOR_PARAM_ENUM:
    for (int32_t i = 0; p->choices[i]; i++)
      if (strcmp(p->choices[i], text) == 0) {
        *(int32_t *)field = i;
        return;
      }
    fprintf(stderr, "param %s: no choice %s\n", p->name, text);
    abort();
  }
}

void stream_param_set(const rigor_plugin_t *d, void *params, const char *name, const char *value) {
  set_value(lookup(d, name), params, value);
}

void *stream_params_new(const rigor_plugin_t *d, const char *const *settings) {
  void *params = calloc(1, d->params_size);
  for (uint32_t i = 0; i < d->n_params; i++)
    if (d->params[i].def) set_value(&d->params[i], params, d->params[i].def);
  for (size_t i = 0; settings && settings[i]; i++) {
    const char *eq = strchr(settings[i], '=');
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - settings[i]), settings[i]);
    stream_param_set(d, params, name, eq + 1);
  }
  return params;
}

const char *stream_identity_get(const stream_outcome_t *o, const char *key) {
  for (int i = 0; i < o->n_identity; i++)
    if (strcmp(o->identity[i].key, key) == 0) return o->identity[i].value;
  return NULL;
}

static uint32_t split_points(const rigor_plugin_t *d, const char *const *settings,
                             const char *kernels, void **points) {
  uint32_t n = 0;
  char list[256];
  snprintf(list, sizeof list, "%s", kernels);
  for (char *save = NULL, *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
    points[n] = stream_params_new(d, settings);
    stream_param_set(d, points[n], "kernels", k);
    n++;
  }
  return n;
}

void stream_drive(const char *so, const char *plugin, const char *kernels,
                  const char *const *settings, stream_timing_t timing, stream_outcome_t *out) {
  stream_drive_on(so, plugin, kernels, settings, timing, NULL, 0, out);
}

void stream_drive_on(const char *so, const char *plugin, const char *kernels,
                     const char *const *settings, stream_timing_t timing, const int *cpus,
                     int n_cpus, stream_outcome_t *out) {
  memset(out, 0, sizeof *out);
  out->failed_point = -1;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(so, plugin, &handle);
  test_host_t th;
  test_host_init(&th);
  for (int i = 0; i < n_cpus && i < 8; i++)
    th.cpus[th.n_cpus++] = cpus[i];
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;

  void *points[STREAM_DRIVER_MAX_POINTS];
  const uint32_t n = split_points(d, settings, kernels, points);
  const rigor_points_t sweep = {.count = n, .points = (const void *const *)points};
  out->n_points = n;

  rigor_work_t work = {0};
  void *state = NULL;
  out->init_rc = d->init(ctx, &th.host, points[0], &sweep, &state, &work);
  if (out->init_rc == 0) {
    for (uint32_t p = 0; p < n; p++)
      for (unsigned w = 0; w < timing.warmup; w++)
        d->run(ctx, state, points[p], 1);
    for (unsigned cycle = 0; cycle < timing.cycles; cycle++)
      for (uint32_t p = 0; p < n; p++) {
        memset(&work, 0, sizeof work);
        d->prime(ctx, state, points[p]);
        for (unsigned i = 0; i < timing.iters; i++)
          d->run(ctx, state, points[p], timing.agg);
        out->bytes[p] = work.bytes;
        out->flops[p] = work.flops;
        rigor_check_t check;
        const int rc = d->validate(ctx, state, points[p], &check);
        double values[8] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
        if (d->metrics_read && d->n_metrics > 0 && d->n_metrics <= 8)
          d->metrics_read(ctx, state, points[p], values);
        out->metrics[p] = values[0];
        out->teams[p] = values[1];
        out->validations++;
        if (rc != 0 && out->validate_rc == 0) {
          out->validate_rc = rc;
          out->failure = check;
          out->failed_point = (int)p;
        }
      }
    out->n_identity = d->identity(ctx, state, out->identity, 40);
    d->fini(ctx, state);
  }
  snprintf(out->error, sizeof out->error, "%s", th.first_error);
  for (uint32_t p = 0; p < n; p++)
    free(points[p]);
  dlclose(handle);
}
