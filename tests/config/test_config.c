#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "canonical.h"
#include "digest.h"
#include "experiment.h"
#include "timing.h"
#include "support.h"

static char *dir;

static int setup(void **state) {
  (void)state;
  dir = scratch_dir("load");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(dir);
  return 0;
}

static rigor_config_t *load_text(const char *name, const char *text,
                                 const rigor_config_opts_t *opts) {
  char err[4096] = "";
  char *path = write_file(dir, name, text);
  rigor_config_t *cfg = NULL;
  int rc = load(path, opts, &cfg, err, sizeof err);
  if (rc != 0) fail_msg("%s", err);
  free(path);
  return cfg;
}

static char *load_error(const char *name, const char *text, const rigor_config_opts_t *opts) {
  char err[4096] = "";
  char *path = write_file(dir, name, text);
  rigor_config_t *cfg = NULL;
  assert_int_equal(load(path, opts, &cfg, err, sizeof err), RIGOR_ECONFIG);
  assert_null(cfg);
  free(path);
  /* Strip the scratch folder so expectations read as relative paths. */
  size_t n = strlen(dir);
  return strdup(strncmp(err, dir, n) == 0 ? err + n + 1 : err);
}

static void assert_json(const json_t *v, const char *expect) {
  char *text =
      json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
  assert_string_equal(text, expect);
  free(text);
}

static const json_t *setting(const rigor_variant_t *v, const char *section, const char *key) {
  return json_object_get(json_object_get(v->settings, section), key);
}

static void test_single_experiment_defaults_filled(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("single.yaml",
                                  "schema: 1\n"
                                  "name: one\n"
                                  "plugin: cfgfix\n"
                                  "params: {bytes: 64M, ratio: 0.25, kernel: add}\n"
                                  "timing: {iters: 100, timeout: 30s, blocking: each_excluded}\n"
                                  "gate: {cv_max: 2%}\n",
                                  NULL);
  assert_int_equal(cfg->n_experiments, 1);
  rigor_experiment_t *e = &cfg->experiments[0];
  assert_string_equal(e->name, "one");
  assert_string_equal(e->output, "results/one.jsonl");
  assert_int_equal(e->n_variants, 1);
  assert_string_equal(e->variants[0].label, "default");
  const json_t *s = e->variants[0].settings;
  assert_json(json_object_get(s, "params"),
              "{\"bytes\":67108864,\"count\":10,\"flag\":false,\"kernel\":\"add\",\"note\":"
              "\"hello\",\"offset\":-3,\"ratio\":0.25,\"runner\":\"\",\"table\":{}}");
  assert_json(json_object_get(s, "timing"),
              "{\"agg\":1,\"aggregate\":\"avg\",\"blocking\":\"each_excluded\",\"check\":1,"
              "\"cycles\":10,\"iters\":100,\"min_window\":0.01,\"per_iteration\":false,"
              "\"report\":\"wall\",\"timeout\":30.0,\"warmup\":1,\"warmup_sizes\":\"points\"}");
  assert_json(json_object_get(s, "gate"),
              "{\"cv_max\":0.02,\"min_samples\":5,\"statistic\":\"cv\"}");
  assert_json(json_object_get(s, "environment"),
              "{\"affinity\":null,\"noise\":{\"burners\":[],\"label\":\"idle\"},"
              "\"randomize_env\":false,\"telemetry\":{\"clock_threshold\":0.8,\"interval\":0.1,"
              "\"raw\":false}}");
  assert_json(json_object_get(s, "launcher"), "null");
  assert_json(json_object_get(s, "deadline"), "null");
  assert_json(json_object_get(s, "sweep"), "[]");
  rigor_timing_t t;
  char err[256];
  assert_int_equal(rigor_timing_from_json(json_object_get(s, "timing"), &t, err, sizeof err), 0);
  assert_int_equal(t.iters, 100);
  assert_int_equal(t.blocking, RIGOR_BLOCKING_EACH_EXCLUDED);
  assert_true(t.timeout_s == 30.0);
  assert_int_equal(strlen(e->hash), 64);
  assert_false(e->runs_commands);
  assert_int_equal(e->schedule.n_blocks, 1);
  assert_int_equal(json_array_size(cfg->warnings), 0);
  rigor_config_free(cfg);
}

static void test_hash_ignores_spelling(void **state) {
  (void)state;
  rigor_config_t *a = load_text("a.yaml",
                                "schema: 1\nname: h\nplugin: cfgfix\n"
                                "params: {bytes: 1M, count: 10}\ngate: {cv_max: 5%}\n"
                                "timing: {timeout: 5m}\n",
                                NULL);
  rigor_config_t *b = load_text("b.yaml",
                                "timing:\n  timeout: 300\ngate:\n  cv_max: 0.05\nplugin: cfgfix\n"
                                "name: h\nschema: 1\nparams:\n  bytes: 1048576\n",
                                NULL);
  rigor_config_t *c =
      load_text("c.yaml", "schema: 1\nname: h\nplugin: cfgfix\nparams: {bytes: 2M}\n", NULL);
  assert_string_equal(a->experiments[0].hash, b->experiments[0].hash);
  assert_string_not_equal(a->experiments[0].hash, c->experiments[0].hash);
  json_t *hashed = rigor_experiment_hashed_form(a->experiments[0].resolved);
  char *dump = rigor_canonical_dump(hashed);
  json_decref(hashed);
  char hash[65];
  rigor_sha256_hex(dump, strlen(dump), hash);
  assert_string_equal(hash, a->experiments[0].hash);
  free(dump);
  rigor_sha256_hex("abc", 3, hash);
  assert_string_equal(hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  rigor_config_free(a);
  rigor_config_free(b);
  rigor_config_free(c);
}

static const char multi_text[] = "schema: 1\n"
                                 "name: suite\n"
                                 "defaults:\n"
                                 "  plugin: cfgfix\n"
                                 "  params: {bytes: 1M, kernel: copy}\n"
                                 "  timing: {warmup: 5, cycles: 3}\n"
                                 "experiments:\n"
                                 "  - name: warmup\n"
                                 "    matrix: {timing.warmup: [0, 1, 5, 20]}\n"
                                 "    order: {design: latin, replicates: 4, seed: 7}\n"
                                 "  - name: kernels\n"
                                 "    params: {kernel: dot}\n"
                                 "    timing: {cycles: 7}\n"
                                 "    output: other.jsonl\n";

static void test_defaults_merge_into_each_experiment(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("multi.yaml", multi_text, NULL);
  assert_int_equal(cfg->n_experiments, 2);
  rigor_experiment_t *w = &cfg->experiments[0], *k = &cfg->experiments[1];
  assert_string_equal(w->output, "results/suite.jsonl");
  assert_string_equal(k->output, "other.jsonl");
  assert_int_equal(w->n_variants, 4);
  const char *labels[] = {"warmup=0", "warmup=1", "warmup=5", "warmup=20"};
  for (int i = 0; i < 4; i++) {
    assert_string_equal(w->variants[i].label, labels[i]);
    assert_int_equal(json_integer_value(setting(&w->variants[i], "timing", "cycles")), 3);
  }
  assert_json(w->variants[3].axes, "{\"timing.warmup\":20}");
  assert_json(setting(&w->variants[0], "params", "kernel"), "\"copy\"");
  /* Deep merge: the experiment's params override one key and keep the defaults' others. */
  assert_json(setting(&k->variants[0], "params", "kernel"), "\"dot\"");
  assert_json(setting(&k->variants[0], "params", "bytes"), "1048576");
  assert_json(setting(&k->variants[0], "timing", "cycles"), "7");
  assert_json(setting(&k->variants[0], "timing", "warmup"), "5");
  /* The seed's 4x4 square. */
  const uint32_t square[] = {0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2};
  assert_memory_equal(w->schedule.cells, square, sizeof square);
  assert_json(json_object_get(w->resolved, "order"),
              "{\"design\":\"latin\",\"randomize\":false,\"replicates\":4,\"seed\":7}");
  rigor_config_free(cfg);

  rigor_config_opts_t opts = {.only = "kernels", .output_override = "x/y.jsonl"};
  cfg = load_text("multi.yaml", multi_text, &opts);
  assert_int_equal(cfg->n_experiments, 1);
  assert_string_equal(cfg->experiments[0].name, "kernels");
  assert_string_equal(cfg->experiments[0].output, "x/y.jsonl");
  rigor_config_free(cfg);

  opts.only = "nope";
  char *err = load_error("multi.yaml", multi_text, &opts);
  char *line = first_line(err);
  assert_string_equal(line, "multi.yaml:1:1: no experiment named 'nope' (the file has: warmup, "
                            "kernels)");
  free(line);
  free(err);
}

/* Each variant carries its timing parsed once, matrix axes applied: what the runner and the plan
 * read instead of the JSON. */
static void test_variants_carry_their_parsed_timing(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("multi.yaml", multi_text, NULL);
  const rigor_experiment_t *w = &cfg->experiments[0], *k = &cfg->experiments[1];
  const uint32_t warmups[] = {0, 1, 5, 20};
  for (int i = 0; i < 4; i++) {
    const rigor_timing_t *t = &w->variants[i].timing;
    assert_int_equal(t->warmup, warmups[i]);
    assert_int_equal(t->cycles, 3);
    json_t *back = rigor_timing_to_json(t);
    assert_true(json_equal(back, json_object_get(w->variants[i].settings, "timing")));
    json_decref(back);
  }
  assert_int_equal(k->variants[0].timing.cycles, 7);
  assert_int_equal(k->variants[0].timing.warmup, 5);
  rigor_config_free(cfg);

  cfg = load_text("auto.yaml",
                  "schema: 1\nname: a\nplugin: cfgfix\n"
                  "matrix: {timing.iters: [auto, 40]}\n"
                  "timing: {timeout: 2m}\n",
                  NULL);
  const rigor_experiment_t *e = &cfg->experiments[0];
  assert_true(e->variants[0].timing.iters_auto);
  assert_false(e->variants[1].timing.iters_auto);
  assert_int_equal(e->variants[1].timing.iters, 40);
  assert_true(e->variants[1].timing.timeout_s == 120.0);
  rigor_config_free(cfg);
}

/* And its environment, parsed once likewise: the runner and the child read the struct, which
 * borrows the binding and the burners from the settings. */
static void test_variants_carry_their_parsed_environment(void **state) {
  (void)state;
  rigor_config_t *cfg =
      load_text("env.yaml",
                "schema: 1\nname: e\nplugin: cfgfix\n"
                "matrix: {environment.randomize_env: [false, true]}\n"
                "environment: {telemetry: {interval: 50ms, raw: true, clock_threshold: 70%},\n"
                "              noise: {label: busy, burners: {cpus: [0]}}}\n",
                NULL);
  const rigor_experiment_t *e = &cfg->experiments[0];
  assert_int_equal(e->n_variants, 2);
  for (uint32_t i = 0; i < 2; i++) {
    const rigor_environment_t *env = &e->variants[i].environment;
    const json_t *settings = json_object_get(e->variants[i].settings, "environment");
    assert_int_equal(env->randomize_env, i == 1);
    assert_true(env->telemetry.raw);
    assert_true(fabs(env->telemetry.interval_s - 0.05) < 1e-12);
    assert_true(fabs(env->telemetry.clock_threshold - 0.7) < 1e-12);
    assert_null(env->affinity);
    assert_ptr_equal(env->noise, json_object_get(settings, "noise"));
    assert_string_equal(json_string_value(json_object_get(env->noise, "label")), "busy");
  }
  rigor_config_free(cfg);

  /* Without an environment section the defaults: no binding, no padding, the sampler's. */
  cfg = load_text("plain.yaml", "schema: 1\nname: p\nplugin: cfgfix\n", NULL);
  const rigor_environment_t *env = &cfg->experiments[0].variants[0].environment;
  rigor_environment_t defaults;
  rigor_environment_defaults(&defaults);
  assert_null(env->affinity);
  assert_false(env->randomize_env);
  assert_false(env->telemetry.raw);
  assert_true(env->telemetry.interval_s == defaults.telemetry.interval_s);
  assert_true(env->telemetry.clock_threshold == defaults.telemetry.clock_threshold);
  rigor_config_free(cfg);
}

/* What the spec hands the child is read back strictly: a refused member names itself. */
static void expect_environment_refused(const char *json, const char *message) {
  json_t *obj = json_loads(json, 0, NULL);
  assert_non_null(obj);
  rigor_environment_t env;
  char err[256] = "";
  assert_int_equal(rigor_environment_from_json(obj, &env, err, sizeof err), RIGOR_EINVAL);
  if (!strstr(err, message)) fail_msg("error '%s' does not contain '%s'", err, message);
  json_decref(obj);
}

static void test_environment_from_json_refuses(void **state) {
  (void)state;
  expect_environment_refused("[]", "environment must be an object");
  expect_environment_refused("{\"telemetry\": {\"interval\": 0}}",
                             "environment.telemetry.interval");
  expect_environment_refused("{\"telemetry\": {\"raw\": 1}}", "environment.telemetry.raw");
  expect_environment_refused("{\"telemetry\": {\"clock_threshold\": 1.5}}",
                             "environment.telemetry.clock_threshold");
  expect_environment_refused("{\"randomize_env\": \"yes\"}", "environment.randomize_env");
  expect_environment_refused("{\"affinity\": [0]}", "environment.affinity");
}

static void test_matrix_cartesian_zip_exclude(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("matrix.yaml",
                                  "schema: 1\nname: m\nplugin: cfgfix\n"
                                  "matrix:\n"
                                  "  bytes: [1KiB, 1M]\n"
                                  "  kernel: [copy, add]\n"
                                  "  timing.blocking: [batch, each]\n"
                                  "  exclude:\n"
                                  "    - {bytes: 1KiB, timing.blocking: each}\n",
                                  NULL);
  rigor_experiment_t *e = &cfg->experiments[0];
  const char *labels[] = {
      "bytes=1KiB, kernel=copy, blocking=batch", "bytes=1KiB, kernel=add, blocking=batch",
      "bytes=1MiB, kernel=copy, blocking=batch", "bytes=1MiB, kernel=copy, blocking=each",
      "bytes=1MiB, kernel=add, blocking=batch",  "bytes=1MiB, kernel=add, blocking=each"};
  assert_int_equal(e->n_variants, 6);
  for (int i = 0; i < 6; i++)
    assert_string_equal(e->variants[i].label, labels[i]);
  assert_json(setting(&e->variants[3], "timing", "blocking"), "\"each\"");
  assert_json(setting(&e->variants[3], "params", "bytes"), "1048576");
  assert_json(json_object_get(json_object_get(e->resolved, "matrix"), "exclude"),
              "[{\"bytes\":\"1KiB\",\"timing.blocking\":\"each\"}]");
  rigor_config_free(cfg);

  cfg = load_text("zip.yaml",
                  "schema: 1\nname: z\nplugin: cfgfix\n"
                  "matrix:\n"
                  "  count: [1, 2, 3]\n"
                  "  flag: [true, false]\n"
                  "  offset: [-1, -2, -3]\n"
                  "  zip: [[count, offset]]\n",
                  NULL);
  e = &cfg->experiments[0];
  assert_int_equal(e->n_variants, 6);
  assert_string_equal(e->variants[0].label, "count=1, flag=true, offset=-1");
  assert_string_equal(e->variants[1].label, "count=1, flag=false, offset=-1");
  assert_string_equal(e->variants[5].label, "count=3, flag=false, offset=-3");
  rigor_config_free(cfg);
}

static void test_ranges_and_aliases(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("range.yaml",
                                  "schema: 1\nname: r\nplugin: cfgfix\n"
                                  "sweep:\n"
                                  "  bytes: {from: 1KiB, to: 64KiB, factor: 4}\n"
                                  "  kernel: classic\n"
                                  "matrix:\n"
                                  "  timing.iters: {from: 10, to: 35, step: 10}\n"
                                  "  ratio: {from: 0.25, to: 1, step: 0.25}\n",
                                  NULL);
  rigor_experiment_t *e = &cfg->experiments[0];
  assert_json(json_object_get(e->variants[0].settings, "sweep"),
              "[{\"axis\":\"bytes\",\"values\":[1024,4096,16384,65536]},{\"axis\":\"kernel\","
              "\"values\":[\"copy\",\"scale\",\"add\",\"triad\"]}]");
  assert_int_equal(e->n_variants, 12);
  assert_string_equal(e->variants[0].label, "iters=10, ratio=0.25");
  assert_string_equal(e->variants[11].label, "iters=30, ratio=1.0");
  rigor_config_free(cfg);
}

/* A range whose bounds are equal is one value; an exclude entry names a value before a label. */
static void test_single_value_range_and_exclude_by_value(void **state) {
  (void)state;
  rigor_config_t *cfg =
      load_text("one.yaml",
                "schema: 1\nname: one\nplugin: cfgfix\n"
                "matrix:\n"
                "  count: {from: 4, to: 4, step: 1}\n"
                "  bytes: [{label: '2048', value: 1024}, {label: two-k, value: 2048}]\n"
                "  exclude: [{bytes: 2048}]\n",
                NULL);
  rigor_experiment_t *e = &cfg->experiments[0];
  assert_int_equal(e->n_variants, 1);
  assert_string_equal(e->variants[0].label, "count=4, bytes=2048");
  assert_int_equal(json_integer_value(json_object_get(
                       json_object_get(e->variants[0].settings, "params"), "bytes")),
                   1024);
  rigor_config_free(cfg);
}

static void test_labelled_values_and_environment(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("env.yaml",
                                  "schema: 1\nname: noise\nplugin: cfgfix\n"
                                  "environment: {affinity: {cpus: [0]}, telemetry: {interval: "
                                  "50ms}}\n"
                                  "matrix:\n"
                                  "  environment.noise:\n"
                                  "    - {label: idle}\n"
                                  "    - {label: same-core, burners: {cpus: [0]}}\n"
                                  "    - {label: mem, burners: [{kind: membw, cpus: 0}]}\n"
                                  "  bytes:\n"
                                  "    - {label: small, value: 4KiB}\n"
                                  "    - 1G\n"
                                  "order: {design: williams, replicates: 6}\n",
                                  NULL);
  rigor_experiment_t *e = &cfg->experiments[0];
  assert_int_equal(e->n_variants, 6);
  assert_string_equal(e->variants[0].label, "noise=idle, bytes=small");
  assert_string_equal(e->variants[3].label, "noise=same-core, bytes=1GiB");
  assert_json(e->variants[3].axes, "{\"bytes\":1073741824,\"environment.noise\":\"same-core\"}");
  assert_json(setting(&e->variants[3], "environment", "noise"),
              "{\"burners\":[{\"cpus\":[0],\"kind\":\"cpu\"}],\"label\":\"same-core\"}");
  assert_json(setting(&e->variants[5], "environment", "noise"),
              "{\"burners\":[{\"cpus\":[0],\"kind\":\"membw\"}],\"label\":\"mem\"}");
  assert_json(setting(&e->variants[0], "environment", "affinity"), "{\"cpus\":[0]}");
  assert_json(setting(&e->variants[0], "environment", "telemetry"),
              "{\"clock_threshold\":0.8,\"interval\":0.05,\"raw\":false}");
  assert_json(setting(&e->variants[0], "params", "bytes"), "4096");
  assert_int_equal(e->schedule.square_rows, 6);
  assert_false(e->schedule.incomplete);
  rigor_config_free(cfg);
}

static void test_incomplete_square_warns(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("warn.yaml",
                                  "schema: 1\nname: w\nplugin: cfgfix\n"
                                  "matrix: {count: [1, 2, 3, 4]}\n"
                                  "order: {design: latin, replicates: 6}\n",
                                  NULL);
  assert_int_equal(json_array_size(cfg->warnings), 1);
  const char *w = json_string_value(json_array_get(cfg->warnings, 0));
  assert_non_null(strstr(w, "warn.yaml:5:8: experiment 'w': 6 blocks leave the 4-row latin square "
                            "incomplete, so positions are not balanced (use a multiple of 4 "
                            "replicates)"));
  assert_true(cfg->experiments[0].schedule.incomplete);
  rigor_config_free(cfg);
}

/* replicates as a map: the schedule holds max blocks, the canonical order keeps the map (so the
 * hash covers it), and a plain count keeps its old canonical form. */
static void test_adaptive_replicates(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("adaptive.yaml",
                                  "schema: 1\nname: a\nplugin: cfgfix\n"
                                  "order: {design: latin, replicates: {max: 40, precision: 1%}}\n",
                                  NULL);
  rigor_experiment_t *e = &cfg->experiments[0];
  assert_int_equal(e->order.min_blocks, 3);
  assert_int_equal(e->order.replicates, 40);
  assert_true(e->order.precision == 0.01);
  assert_int_equal(e->schedule.n_blocks, 40);
  assert_json(json_object_get(json_object_get(e->resolved, "order"), "replicates"),
              "{\"max\":40,\"min\":3,\"precision\":0.01}");
  char hash[65];
  memcpy(hash, e->hash, sizeof hash);
  rigor_config_free(cfg);
  cfg = load_text("adaptive2.yaml",
                  "schema: 1\nname: a\nplugin: cfgfix\n"
                  "order: {design: latin, replicates: {min: 3, max: 40, precision: 0.01}}\n",
                  NULL);
  assert_string_equal(cfg->experiments[0].hash, hash);
  rigor_config_free(cfg);
  cfg =
      load_text("fixed.yaml", "schema: 1\nname: a\nplugin: cfgfix\norder: {replicates: 4}\n", NULL);
  assert_json(json_object_get(json_object_get(cfg->experiments[0].resolved, "order"), "replicates"),
              "4");
  assert_true(cfg->experiments[0].order.precision == 0);
  rigor_config_free(cfg);
}

static void test_extends_merges_and_replaces(void **state) {
  (void)state;
  free(write_file(dir, "team/base.yaml",
                  "schema: 1\nplugin: cfgfix\nparams: {bytes: 2M, note: base}\n"
                  "timing: {iters: 50, cycles: 4}\n"
                  "launcher: [mpirun, -np, \"{ranks}\"]\n"));
  free(write_file(dir, "team/mid.yaml",
                  "extends: base.yaml\ntiming: {cycles: 6}\nlauncher: [srun]\n"));
  rigor_config_t *cfg =
      load_text("team/child.yaml", "extends: mid.yaml\nname: child\nparams: {note: child}\n", NULL);
  rigor_experiment_t *e = &cfg->experiments[0];
  assert_json(setting(&e->variants[0], "params", "note"), "\"child\"");
  assert_json(setting(&e->variants[0], "params", "bytes"), "2097152");
  assert_json(setting(&e->variants[0], "timing", "iters"), "50");
  assert_json(setting(&e->variants[0], "timing", "cycles"), "6");
  assert_json(json_object_get(e->variants[0].settings, "launcher"), "[\"srun\"]");
  rigor_config_free(cfg);

  free(write_file(dir, "outside.yaml", "schema: 1\nplugin: cfgfix\n"));
  char *err = load_error("team/ext.yaml", "extends: ../outside.yaml\nname: x\n", NULL);
  char *line = first_line(err);
  assert_non_null(strstr(line, "team/ext.yaml:1:10: extends target '../outside.yaml' is outside "
                               "the folder of "));
  assert_non_null(strstr(line, "(pass --allow-external-extends to allow it)"));
  free(line);
  free(err);
  rigor_config_opts_t opts = {.allow_external_extends = true};
  cfg = load_text("team/ext.yaml", "extends: ../outside.yaml\nname: x\n", &opts);
  assert_string_equal(cfg->experiments[0].name, "x");
  rigor_config_free(cfg);
}

static void test_runs_commands(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("cmd.yaml",
                                  "schema: 1\nname: c\nplugin: cfgcmd\n"
                                  "matrix: {runner: ['', ./run.sh]}\n",
                                  NULL);
  assert_true(cfg->experiments[0].runs_commands);
  assert_null(cfg->experiments[0].variants[0].commands);
  assert_string_equal(cfg->experiments[0].variants[1].commands, "./run.sh");
  rigor_config_free(cfg);
  /* The plugin's hook sees every place a param can be set: params, extends, sweep points. */
  free(write_file(dir, "cmdbase.yaml", "schema: 1\nparams: {runner: ./from-base.sh}\n"));
  cfg =
      load_text("cmdext.yaml", "schema: 1\nextends: cmdbase.yaml\nname: c\nplugin: cfgcmd\n", NULL);
  assert_true(cfg->experiments[0].runs_commands);
  assert_string_equal(cfg->experiments[0].variants[0].commands, "./from-base.sh");
  rigor_config_free(cfg);
  cfg = load_text("nocmd.yaml", "schema: 1\nname: c\nplugin: cfgcmd\n", NULL);
  assert_false(cfg->experiments[0].runs_commands);
  rigor_config_free(cfg);
  cfg = load_text("fixcmd.yaml", "schema: 1\nname: c\nplugin: cfgfix\nparams: {runner: x}\n", NULL);
  assert_false(cfg->experiments[0].runs_commands);
  rigor_config_free(cfg);
}

/* JSON params take YAML lists and mappings; a matrix or sweep axis "table.KEY" sets one member
 * of the object without touching the others, and axes that set the same thing are refused. */
static void test_json_params_and_member_axes(void **state) {
  (void)state;
  rigor_config_t *cfg = load_text("json.yaml",
                                  "schema: 1\nname: j\nplugin: cfgfix\n"
                                  "params:\n  table: {keep: [1, two, ~], size: 1K}\n"
                                  "matrix:\n  table.level: [{label: fast, value: '1'}, '9']\n"
                                  "sweep:\n  table.size: [1K, 1M]\n",
                                  NULL);
  rigor_experiment_t *e = &cfg->experiments[0];
  assert_int_equal(e->n_variants, 2);
  assert_string_equal(e->variants[0].label, "level=fast");
  assert_string_equal(e->variants[1].label, "level=9");
  assert_json(setting(&e->variants[0], "params", "table"),
              "{\"keep\":[\"1\",\"two\",null],\"level\":\"1\",\"size\":\"1K\"}");
  assert_json(setting(&e->variants[1], "params", "table"),
              "{\"keep\":[\"1\",\"two\",null],\"level\":\"9\",\"size\":\"1K\"}");
  assert_json(json_object_get(e->variants[0].settings, "sweep"),
              "[{\"axis\":\"table.size\",\"values\":[\"1K\",\"1M\"]}]");
  rigor_config_free(cfg);

  char *err = load_error("overlap.yaml",
                         "schema: 1\nname: j\nplugin: cfgfix\n"
                         "matrix: {table: [{a: 1}], table.a: ['2']}\n",
                         NULL);
  char *line = first_line(err);
  assert_string_equal(line,
                      "overlap.yaml:4:27: matrix axes 'table' and 'table.a' set the same param");
  free(line), free(err);
  err = load_error("overlap2.yaml",
                   "schema: 1\nname: j\nplugin: cfgfix\n"
                   "sweep: {table.a: ['1']}\nmatrix: {table: [{a: 1}]}\n",
                   NULL);
  line = first_line(err);
  assert_string_equal(line,
                      "overlap2.yaml:5:10: param 'table' is both a sweep axis and a matrix axis");
  free(line), free(err);
  err = load_error("nomember.yaml", "schema: 1\nname: j\nplugin: cfgfix\nmatrix: {note.a: [x]}\n",
                   NULL);
  line = first_line(err);
  assert_string_equal(line,
                      "nomember.yaml:4:10: matrix axis 'note.a': axes name plugin params, "
                      "members of a JSON param (PARAM.KEY), timing.*, environment.* or gate.*");
  free(line), free(err);
}

/* A plugin's check_params failure is reported at the node that set the param it names. */
static void test_check_params_reported_at_the_param(void **state) {
  (void)state;
  static const struct {
    const char *yaml, *error;
  } cases[] = {
      {"params:\n  table: {ok: 1, bad: 2}\n",
       "p.yaml:5:23: plugin 'cfgfix': param 'table.bad': the fixture refuses a member named bad "
       "(point 0)"},
      {"matrix:\n  table.bad: ['1', '2']\n",
       "p.yaml:5:3: plugin 'cfgfix': param 'table.bad': the fixture refuses a member named bad "
       "(point 0) (variant bad=1)"},
      {"sweep:\n  table.bad: ['1']\n",
       "p.yaml:5:3: plugin 'cfgfix': param 'table.bad': the fixture refuses a member named bad"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char text[512];
    snprintf(text, sizeof text, "schema: 1\nname: p\nplugin: cfgfix\n%s", cases[i].yaml);
    char *err = load_error("p.yaml", text, NULL);
    char *line = first_line(err);
    if (!strstr(line, cases[i].error)) fail_msg("case %zu: '%s'", i, line);
    free(line), free(err);
  }
}

static void test_timing_json_round_trip(void **state) {
  (void)state;
  rigor_timing_t t, back;
  rigor_timing_defaults(&t);
  assert_int_equal(t.warmup, 1);
  assert_int_equal(t.cycles, 10);
  assert_int_equal(t.iters, 20);
  assert_int_equal(t.aggregate, RIGOR_AGGREGATE_AVG);
  t.blocking = RIGOR_BLOCKING_EACH_BARRIER;
  t.report = RIGOR_WINDOW_CPUTIME;
  t.per_iteration = true;
  json_t *j = rigor_timing_to_json(&t);
  char err[128];
  assert_int_equal(rigor_timing_from_json(j, &back, err, sizeof err), 0);
  assert_memory_equal(&t, &back, sizeof t);
  json_object_set_new(j, "cycles", json_integer(0));
  assert_int_not_equal(rigor_timing_from_json(j, &back, err, sizeof err), 0);
  assert_string_equal(err, "timing.cycles must be an integer from 1 to 4294967295");
  json_decref(j);
  /* iters: auto travels as the string, with its min_window. */
  t.iters_auto = true;
  t.iters = 0;
  t.min_window_s = 0.25;
  j = rigor_timing_to_json(&t);
  assert_string_equal(json_string_value(json_object_get(j, "iters")), "auto");
  assert_int_equal(rigor_timing_from_json(j, &back, err, sizeof err), 0);
  assert_memory_equal(&t, &back, sizeof t);
  json_object_set_new(j, "min_window", json_real(0));
  assert_int_not_equal(rigor_timing_from_json(j, &back, err, sizeof err), 0);
  assert_string_equal(err, "timing.min_window must be a positive number of seconds");
  json_decref(j);
}

static void test_shipped_design_examples(void **state) {
  (void)state;
  const char *files[] = {"sequential", "mirrored", "latin", "williams", "random", "nccl-study"};
  const uint32_t runs[] = {6, 8, 16, 18, 30, 58};
  for (size_t i = 0; i < 6; i++) {
    char path[1024], err[4096] = "";
    snprintf(path, sizeof path, "%s/configs/designs/%s.yaml", RIGOR_SOURCE_DIR, files[i]);
    rigor_config_t *cfg = NULL;
    if (load(path, NULL, &cfg, err, sizeof err) != 0) fail_msg("%s", err);
    uint32_t total = 0;
    for (uint32_t k = 0; k < cfg->n_experiments; k++)
      total += cfg->experiments[k].schedule.n_blocks * cfg->experiments[k].schedule.n_variants;
    assert_int_equal(total, runs[i]);
    assert_int_equal(json_array_size(cfg->warnings), 0);
    rigor_config_free(cfg);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_single_experiment_defaults_filled),
      cmocka_unit_test(test_hash_ignores_spelling),
      cmocka_unit_test(test_defaults_merge_into_each_experiment),
      cmocka_unit_test(test_variants_carry_their_parsed_timing),
      cmocka_unit_test(test_variants_carry_their_parsed_environment),
      cmocka_unit_test(test_environment_from_json_refuses),
      cmocka_unit_test(test_matrix_cartesian_zip_exclude),
      cmocka_unit_test(test_single_value_range_and_exclude_by_value),
      cmocka_unit_test(test_ranges_and_aliases),
      cmocka_unit_test(test_labelled_values_and_environment),
      cmocka_unit_test(test_incomplete_square_warns),
      cmocka_unit_test(test_extends_merges_and_replaces),
      cmocka_unit_test(test_runs_commands),
      cmocka_unit_test(test_json_params_and_member_axes),
      cmocka_unit_test(test_check_params_reported_at_the_param),
      cmocka_unit_test(test_timing_json_round_trip),
      cmocka_unit_test(test_adaptive_replicates),
      cmocka_unit_test(test_shipped_design_examples),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
