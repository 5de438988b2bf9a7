#include "child.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"
#include "clock.h"
#include "errors.h"
#include "measure.h"
#include "metric_set.h"
#include "run_params.h"
#include "telemetry.h"
#include "timing.h"
#include "utf8.h"
#include "wire.h"

typedef struct child {
  const rigor_child_args_t *a;
  rigor_ctx_t ctx;
  void *state;
  atomic_bool ready; /* init succeeded and fini not yet called: the hook may read state */
} child_t;

/* Only rank 0 reports; the other ranks of a launcher job measure alongside it. */
static void send(const rigor_child_args_t *a, json_t *msg) {
  rigor_wire_send(a->comm->rank == 0 ? a->out_fd : -1, msg);
}

static void emit_sample(void *arg, json_t *sample) {
  const rigor_child_args_t *a = arg;
  rigor_record_stamp(sample, a->experiment_name, a->run, a->attempt, a->variant);
  send(a, sample);
}

static void on_error(void *arg, int code, const char *message) {
  send(arg, rigor_wire_error(code, rigor_err_name(code), message));
}

static int telemetry_hook(void *arg, rigor_telemetry_value_t *out, int cap) {
  child_t *c = arg;
  if (!c->a->plugin->telemetry || !atomic_load(&c->ready)) return 0;
  return c->a->plugin->telemetry(&c->ctx, c->state, out, cap);
}

static json_t *identity_json(child_t *c) {
  json_t *o = json_object();
  const rigor_plugin_t *p = c->a->plugin;
  if (!p->identity) return o;
  rigor_kv_t kv[64];
  memset(kv, 0, sizeof kv);
  int n = p->identity(&c->ctx, c->state, kv, 64);
  for (int i = 0; i < n && i < 64; i++) {
    kv[i].key[sizeof kv[i].key - 1] = '\0';
    kv[i].value[sizeof kv[i].value - 1] = '\0';
    rigor_utf8_sanitize(kv[i].key);
    rigor_utf8_sanitize(kv[i].value);
    json_object_set_new(o, kv[i].key, json_string(kv[i].value));
  }
  return o;
}

static json_t *cpus_json(const rigor_ctx_t *ctx) {
  json_t *a = json_array();
  for (int i = 0; i < ctx->n_cpus; i++)
    json_array_append_new(a, json_integer(ctx->cpus[i]));
  return a;
}

/* The outcome of measuring: a status and the plugin's error, if any. `recorded` is the plugin
 * with the metrics its params declare. */
static rigor_run_status_t measure(child_t *c, const rigor_plugin_t *recorded,
                                  const rigor_timing_t *timing, const rigor_run_params_t *pts,
                                  rigor_run_end_t *end) {
  const rigor_child_args_t *a = c->a;
  const rigor_plugin_t *p = a->plugin;
  rigor_work_t work = {0};
  int rc = p->init(&c->ctx, &c->ctx.host, pts->base, &pts->points, &c->state, &work);
  if (rc < 0) {
    if (c->ctx.error_code == 0)
      c->ctx.host.error(&c->ctx, rc, "init returned %d (%s)", rc, rigor_strerror(rc));
    c->state = NULL;
    return rc == RIGOR_EUNAVAILABLE ? RIGOR_RUN_SKIPPED : RIGOR_RUN_FAILED;
  }
  atomic_store(&c->ready, true);
  end->plugin_identity = identity_json(c);
  rigor_measure_t m = {
      .ctx = &c->ctx,
      .plugin = recorded,
      .state = c->state,
      .timing = timing,
      .points = (const void *const *)pts->structs,
      .point_objs = pts->objs,
      .point_labels = pts->labels,
      .n_points = pts->n,
      .work = &work,
      .emit = emit_sample,
      .emit_arg = (void *)a,
  };
  rigor_clock_probe(&m.clock);
  rc = rigor_measure_run(&m);
  end->calibration = m.calibration;
  if (c->ctx.deadline_hit) {
    /* The experiment ran out of time, not the run: it is interrupted, and --resume repeats it. */
    if (c->ctx.error_code == 0)
      c->ctx.host.error(&c->ctx, RIGOR_ETIMEDOUT,
                        "the experiment's deadline passed %.3f s into the run", a->deadline_s);
    return RIGOR_RUN_INTERRUPTED;
  }
  if (rc == RIGOR_ETIMEDOUT) return RIGOR_RUN_TIMEOUT; /* the plugin's own limit, as exec's */
  if (rc == RIGOR_ECANCELED) return RIGOR_RUN_INTERRUPTED;
  if (rc < 0) return rc == RIGOR_EUNAVAILABLE ? RIGOR_RUN_SKIPPED : RIGOR_RUN_FAILED;
  if (m.wrong_samples > 0) {
    c->ctx.host.error(&c->ctx, RIGOR_EVALIDATE, "%llu of %llu samples failed their check",
                      (unsigned long long)m.wrong_samples, (unsigned long long)m.samples);
    return RIGOR_RUN_INVALID;
  }
  return RIGOR_RUN_OK;
}

int rigor_child_run(const rigor_child_args_t *a) {
  child_t c = {.a = a};
  rigor_ctx_init(&c.ctx, a->comm, a->stop);
  c.ctx.on_error = on_error;
  c.ctx.on_error_arg = (void *)a;
  c.ctx.commands_allowed = a->commands_allowed;
  const rigor_plugin_t *p = a->plugin;
  const json_t *env = json_object_get(a->settings, "environment");
  rigor_run_end_t end = {.status = RIGOR_RUN_FAILED};
  rigor_run_params_t pts = {0};
  rigor_metric_set_t metric_set = {0};
  rigor_telemetry_t *tele = NULL;
  char err[1024];

  rigor_timing_t timing;
  if (rigor_timing_from_json(json_object_get(a->settings, "timing"), &timing, err, sizeof err) <
      0) {
    c.ctx.host.error(&c.ctx, RIGOR_ECONFIG, "%s", err);
    goto end;
  }
  if (a->deadline_s > 0) c.ctx.deadline_ns = (double)rigor_now_ns() + a->deadline_s * 1e9;

  int n_cpus = 0;
  const json_t *bind = json_object_get(env, "affinity");
  if (rigor_affinity_apply(bind, c.ctx.cpus, 1024, &n_cpus, err, sizeof err) < 0) {
    c.ctx.host.error(&c.ctx, RIGOR_EINVAL, "environment.%s", err);
    goto end;
  }
  c.ctx.n_cpus = n_cpus < 1024 ? n_cpus : 1024;
  if (bind && !json_is_null(bind)) end.affinity = cpus_json(&c.ctx);

  if (rigor_run_params_build(p, json_object_get(a->settings, "params"),
                             json_object_get(a->settings, "sweep"), &pts, err, sizeof err) < 0) {
    c.ctx.host.error(&c.ctx, RIGOR_ECONFIG, "params: %s", err);
    goto end;
  }
  if (rigor_metric_set_build(p, pts.base, &metric_set, err, sizeof err) < 0) {
    c.ctx.host.error(&c.ctx, RIGOR_EPLUGIN, "metrics: %s", err);
    goto end;
  }
  /* Samples carry the static metrics and those the params declare. */
  const rigor_plugin_t recorded = rigor_metric_set_bind(p, &metric_set);
  rigor_telemetry_start(json_object_get(env, "telemetry"), c.ctx.cpus, c.ctx.n_cpus, telemetry_hook,
                        &c, &tele);
  end.status = measure(&c, &recorded, &timing, &pts, &end);
  /* The sampler stops before fini, so the hook never sees freed state. */
  end.telemetry = tele ? rigor_telemetry_stop(tele, &end.telemetry_raw) : NULL;
  if (c.state) {
    atomic_store(&c.ready, false);
    p->fini(&c.ctx, c.state);
    c.state = NULL;
  }
end:
  end.reason = c.ctx.error_code ? c.ctx.error : NULL;
  send(a, rigor_wire_end(&end));
  rigor_metric_set_free(&metric_set);
  rigor_run_params_free(p, &pts);
  return rigor_child_exit_code(end.status);
}
