#include "child.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"
#include "arms.h"
#include "clock.h"
#include "errors.h"
#include "measure.h"
#include "metric_set.h"
#include "private_copy.h"
#include "run_params.h"
#include "slurm.h"
#include "telemetry.h"
#include "timing.h"
#include "utf8.h"
#include "wire.h"

/* One plugin instance of the run: the run's only one, or one of its interleaved arms. */
typedef struct arm {
  struct child *child;
  uint32_t index, variant;
  uint32_t slot; /* its position in the cycle now measuring */
  const json_t *settings;
  const rigor_plugin_t *plugin;
  rigor_loaded_t *copy; /* a build arm's private copy, unloaded at the end */
  rigor_timing_t timing;
  rigor_run_params_t pts;
  rigor_metric_set_t metric_set;
  rigor_plugin_t recorded; /* the plugin with the metrics its params declare */
  rigor_work_t work;
  rigor_measure_t m;
  void *state;
  bool inited;
} arm_t;

typedef struct child {
  const rigor_child_args_t *a;
  rigor_ctx_t ctx;
  arm_t *arms;
  uint32_t n_arms;
  bool interleaved;
  atomic_bool ready; /* every init succeeded and no fini called yet: the hook may read state */
} child_t;

/* Only rank 0 reports; the other ranks of a launcher job measure alongside it. */
static void send(const rigor_child_args_t *a, json_t *msg) {
  rigor_wire_send(a->comm->rank == 0 ? a->out_fd : -1, msg);
}

static void emit_sample(void *arg, rigor_sample_record_t *sample) {
  const arm_t *arm = arg;
  const rigor_child_args_t *a = arm->child->a;
  sample->experiment = a->experiment_name;
  sample->run = a->run;
  sample->attempt = a->attempt;
  sample->variant = arm->variant;
  if (arm->child->interleaved) {
    sample->arm = arm->index;
    sample->slot = arm->slot;
  }
  send(a, rigor_record_sample(sample));
}

static void on_slot(void *arg, uint32_t arm, uint32_t slot) {
  child_t *c = arg;
  c->arms[arm].slot = slot;
}

static void on_error(void *arg, int code, const char *message) {
  send(arg, rigor_wire_error(code, rigor_err_name(code), message));
}

/* The run's telemetry hook reads the first arm's device: the arms share the machine. */
static int telemetry_hook(void *arg, rigor_telemetry_value_t *out, int cap) {
  child_t *c = arg;
  const arm_t *arm = &c->arms[0];
  if (!arm->plugin->telemetry || !atomic_load(&c->ready)) return 0;
  return arm->plugin->telemetry(&c->ctx, arm->state, out, cap);
}

static json_t *identity_json(child_t *c, const arm_t *arm) {
  json_t *o = json_object();
  const rigor_plugin_t *p = arm->plugin;
  if (!p->identity) return o;
  rigor_kv_t kv[64];
  memset(kv, 0, sizeof kv);
  int n = p->identity(&c->ctx, arm->state, kv, 64);
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

static rigor_run_status_t status_of(int rc) {
  return rc == RIGOR_EUNAVAILABLE ? RIGOR_RUN_SKIPPED : RIGOR_RUN_FAILED;
}

static int init_arm(child_t *c, arm_t *arm) {
  const rigor_plugin_t *p = arm->plugin;
  int rc = p->init(&c->ctx, &c->ctx.host, arm->pts.base, &arm->pts.points, &arm->state, &arm->work);
  if (rc < 0) {
    char which[32] = "";
    if (c->interleaved) snprintf(which, sizeof which, "arm %u: ", arm->index);
    if (c->ctx.error_code == 0)
      c->ctx.host.error(&c->ctx, rc, "%sinit returned %d (%s)", which, rc, rigor_strerror(rc));
    arm->state = NULL;
    return rc;
  }
  arm->inited = true;
  arm->m = (rigor_measure_t){
      .ctx = &c->ctx,
      .plugin = &arm->recorded,
      .state = arm->state,
      .timing = &arm->timing,
      .points = (const void *const *)arm->pts.structs,
      .point_objs = arm->pts.objs,
      .point_labels = arm->pts.labels,
      .n_points = arm->pts.n,
      .work = &arm->work,
      .emit = emit_sample,
      .emit_arg = arm,
  };
  rigor_clock_probe(&arm->m.clock);
  return 0;
}

/* The k-th arm to set up (load, init, warm up, calibrate): the order of the run's first cycle,
 * so whatever being set up first gives an arm (its memory allocated first, its pages warmed
 * first) falls on each arm in the runs where it measures first, half of them: a difference
 * between runs, which the interval carries, not a bias of one arm. */
static uint32_t setup_arm(const child_t *c, uint32_t k) {
  const rigor_child_args_t *a = c->a;
  if (!c->interleaved || !a->arm_square || !a->arm_rows) return k;
  return a->arm_square[(size_t)(a->arm_first_row % a->arm_rows) * c->n_arms + k];
}

/* Every arm's warmup and calibration, then the cycles with the arms in each cycle's order. */
static int measure_arms(child_t *c) {
  const rigor_child_args_t *a = c->a;
  rigor_measure_t **ms = calloc(c->n_arms, sizeof *ms);
  if (!ms) return RIGOR_ENOMEM;
  int rc = 0;
  for (uint32_t i = 0; i < c->n_arms; i++)
    ms[i] = &c->arms[i].m;
  for (uint32_t k = 0; k < c->n_arms && rc == 0; k++)
    rc = rigor_measure_prepare(ms[setup_arm(c, k)]);
  rigor_arm_order_t order = {a->arm_square, a->arm_rows, c->n_arms, a->arm_first_row};
  if (rc == 0) rc = rigor_arms_measure(ms, &order, on_slot, c);
  for (uint32_t i = 0; i < c->n_arms; i++)
    rigor_measure_release(ms[i]);
  free(ms);
  return rc;
}

/* iters: auto of every arm, each entry naming its arm when the run has several. */
static json_t *calibration_json(child_t *c) {
  json_t *all = NULL;
  for (uint32_t i = 0; i < c->n_arms; i++) {
    json_t *cal = c->arms[i].m.calibration;
    c->arms[i].m.calibration = NULL;
    if (!cal) continue;
    if (!all) all = json_array();
    size_t k;
    json_t *entry;
    json_array_foreach(cal, k, entry) {
      if (c->interleaved) json_object_set_new(entry, "arm", json_integer(i));
      json_array_append(all, entry);
    }
    json_decref(cal);
  }
  return all;
}

/* The outcome of measuring: a status and the plugin's error, if any. */
static rigor_run_status_t measure(child_t *c, rigor_run_end_t *end) {
  const rigor_child_args_t *a = c->a;
  for (uint32_t k = 0; k < c->n_arms; k++) {
    int rc = init_arm(c, &c->arms[setup_arm(c, k)]);
    if (rc < 0) return status_of(rc);
  }
  atomic_store(&c->ready, true);
  end->plugin_identity = identity_json(c, &c->arms[0]);
  int rc = c->interleaved ? measure_arms(c) : rigor_measure_run(&c->arms[0].m);
  end->calibration = calibration_json(c);
  if (c->ctx.deadline_hit) {
    /* The experiment ran out of time, not the run: it is interrupted, and --resume repeats it. */
    if (c->ctx.error_code == 0)
      c->ctx.host.error(&c->ctx, RIGOR_ETIMEDOUT,
                        "the experiment's deadline passed %.3f s into the run", a->deadline_s);
    return RIGOR_RUN_INTERRUPTED;
  }
  if (rc == RIGOR_ETIMEDOUT) return RIGOR_RUN_TIMEOUT; /* the plugin's own limit, as exec's */
  if (rc == RIGOR_ECANCELED) return RIGOR_RUN_INTERRUPTED;
  if (rc < 0) return status_of(rc);
  uint64_t samples = 0, wrong = 0;
  for (uint32_t i = 0; i < c->n_arms; i++) {
    samples += c->arms[i].m.samples;
    wrong += c->arms[i].m.wrong_samples;
  }
  if (wrong > 0) {
    c->ctx.host.error(&c->ctx, RIGOR_EVALIDATE, "%llu of %llu samples failed their check",
                      (unsigned long long)wrong, (unsigned long long)samples);
    return RIGOR_RUN_INVALID;
  }
  return RIGOR_RUN_OK;
}

/* The arm's plugin (its private copy for a build arm), timing, points and metrics. */
static int ready_arm(child_t *c, arm_t *arm) {
  char err[1024], which[32] = "";
  if (c->interleaved) snprintf(which, sizeof which, "arm %u: ", arm->index);
  if (arm->plugin == NULL) {
    const rigor_child_arm_t *spec = &c->a->arms[arm->index];
    if (rigor_private_copy_load(spec->plugin_file, spec->plugin_name, c->a->allow_unsafe,
                                &arm->copy, err, sizeof err) < 0)
      return c->ctx.host.error(&c->ctx, RIGOR_EPLUGIN, "%s%s", which, err);
    arm->plugin = &arm->copy->desc;
  }
  const rigor_plugin_t *p = arm->plugin;
  if (rigor_run_params_build(p, json_object_get(arm->settings, "params"),
                             json_object_get(arm->settings, "sweep"), &arm->pts, err,
                             sizeof err) < 0)
    return c->ctx.host.error(&c->ctx, RIGOR_ECONFIG, "%sparams: %s", which, err);
  if (rigor_metric_set_build(p, arm->pts.base, &arm->metric_set, err, sizeof err) < 0)
    return c->ctx.host.error(&c->ctx, RIGOR_EPLUGIN, "%smetrics: %s", which, err);
  /* Samples carry the static metrics and those the params declare. */
  arm->recorded = rigor_metric_set_bind(p, &arm->metric_set);
  return 0;
}

static void release_arms(child_t *c) {
  for (uint32_t i = 0; c->arms && i < c->n_arms; i++) {
    arm_t *arm = &c->arms[i];
    rigor_metric_set_free(&arm->metric_set);
    if (arm->plugin) rigor_run_params_free(arm->plugin, &arm->pts);
    json_decref(arm->m.calibration);
    if (arm->copy) rigor_plugin_unload(arm->copy);
  }
  free(c->arms);
}

/* The arms the run hosts: its one instance, or every interleaved arm. */
static int make_arms(child_t *c) {
  const rigor_child_args_t *a = c->a;
  c->interleaved = a->n_arms > 0;
  c->n_arms = c->interleaved ? a->n_arms : 1;
  c->arms = calloc(c->n_arms, sizeof *c->arms);
  if (!c->arms) return RIGOR_ENOMEM;
  for (uint32_t i = 0; i < c->n_arms; i++) {
    arm_t *arm = &c->arms[i];
    arm->child = c;
    arm->index = i;
    if (c->interleaved) {
      arm->settings = a->arms[i].settings;
      arm->timing = a->arms[i].timing;
      arm->variant = a->arms[i].variant;
      arm->plugin = a->arms[i].plugin_file ? NULL : a->arms[i].plugin;
    } else {
      arm->settings = a->settings;
      arm->timing = a->timing;
      arm->variant = a->variant;
      arm->plugin = a->plugin;
    }
  }
  return 0;
}

int rigor_child_run(const rigor_child_args_t *a) {
  child_t c = {.a = a};
  rigor_ctx_init(&c.ctx, a->comm, a->stop);
  c.ctx.on_error = on_error;
  c.ctx.on_error_arg = (void *)a;
  c.ctx.commands_allowed = a->commands_allowed;
  rigor_run_end_t end = {.status = RIGOR_RUN_FAILED};
  rigor_telemetry_t *tele = NULL;
  char err[1024];
  json_t *where = rigor_slurm_where();
  if (where) send(a, rigor_wire_where(where));

  if (make_arms(&c) < 0) {
    c.ctx.host.error(&c.ctx, RIGOR_ENOMEM, "out of memory");
    goto end;
  }
  const rigor_environment_t *env = &a->environment;
  if (a->deadline_s > 0) c.ctx.deadline_ns = (double)rigor_now_ns() + a->deadline_s * 1e9;

  int n_cpus = 0;
  if (rigor_affinity_apply(env->affinity, c.ctx.cpus, 1024, &n_cpus, err, sizeof err) < 0) {
    c.ctx.host.error(&c.ctx, RIGOR_EINVAL, "environment.%s", err);
    goto end;
  }
  c.ctx.n_cpus = n_cpus < 1024 ? n_cpus : 1024;
  if (env->affinity) end.affinity = cpus_json(&c.ctx);

  for (uint32_t k = 0; k < c.n_arms; k++)
    if (ready_arm(&c, &c.arms[setup_arm(&c, k)]) < 0) goto end;
  rigor_telemetry_start(env->telemetry.interval_s, env->telemetry.raw, c.ctx.cpus, c.ctx.n_cpus,
                        telemetry_hook, &c, &tele);
  end.status = measure(&c, &end);
  /* The sampler stops before fini, so the hook never sees freed state. */
  end.telemetry = tele ? rigor_telemetry_stop(tele, &end.telemetry_raw) : NULL;
  atomic_store(&c.ready, false);
  for (uint32_t k = c.n_arms; k-- > 0;) {
    arm_t *arm = &c.arms[setup_arm(&c, k)];
    if (arm->inited) arm->plugin->fini(&c.ctx, arm->state);
    arm->inited = false;
    arm->state = NULL;
  }
end:
  end.reason = c.ctx.error_code ? c.ctx.error : NULL;
  send(a, rigor_wire_end(&end));
  release_arms(&c);
  return rigor_child_exit_code(end.status);
}
