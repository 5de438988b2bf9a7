/* rigor validate / plan / config as a user runs them: exit codes and printed text. */
#include <dirent.h>
#include <stdbool.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "canonical.h"
#include "experiment.h"
#include "support.h"

static char *dir;

static int setup(void **state) {
  (void)state;
  dir = scratch_dir("cli");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(dir);
  return 0;
}

/* Runs `rigor ARGS --plugin-path FIXTURES` and captures stdout and stderr together. */
static int rigor(const char *args, char **output) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' %s --plugin-path '%s' 2>&1", RIGOR_EXE, args,
           RIGOR_TEST_PLUGIN_DIR);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t cap = 1 << 16, used = 0;
  char *buf = malloc(cap);
  size_t n;
  while ((n = fread(buf + used, 1, cap - used - 1, p)) > 0) {
    used += n;
    if (cap - used < 4096) buf = realloc(buf, cap *= 2);
  }
  buf[used] = '\0';
  int status = pclose(p);
  *output = buf;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char warmup_text[] = "schema: 1\n"
                                  "name: seed\n"
                                  "defaults:\n"
                                  "  plugin: cfgfix\n"
                                  "experiments:\n"
                                  "  - name: warmup\n"
                                  "    matrix: {timing.warmup: [0, 1, 5, 20]}\n"
                                  "    order: {design: latin, replicates: 4, seed: 7}\n"
                                  "  - name: cmd\n"
                                  "    plugin: cfgcmd\n"
                                  "    matrix: {runner: ['', ./measure.sh]}\n"
                                  "    order: {design: mirrored, replicates: 2}\n";

static void test_validate_exit_codes(void **state) {
  (void)state;
  char *path = write_file(dir, "ok.yaml", warmup_text), *out = NULL, args[2048];
  snprintf(args, sizeof args, "validate '%s'", path);
  assert_int_equal(rigor(args, &out), 0);
  assert_non_null(strstr(out, "ok.yaml: ok (2 experiments, 6 variants, 20 runs)"));
  free(out);
  char *bad =
      write_file(dir, "bad.yaml", "schema: 1\nname: x\nplugin: cfgfix\ntiming: {iter: 1}\n");
  snprintf(args, sizeof args, "validate '%s'", bad);
  assert_int_equal(rigor(args, &out), 2);
  assert_non_null(strstr(out, "bad.yaml:4:10: unknown key 'iter' in timing (did you mean "
                              "'iters'?)\n  timing: {iter: 1}\n           ^\n"));
  free(out);
  assert_int_equal(rigor("validate", &out), 2);
  assert_non_null(strstr(out, "rigor validate: no experiment file given"));
  free(out);
  free(path);
  free(bad);
}

static void test_plan_prints_blocks_and_commands(void **state) {
  (void)state;
  char *path = write_file(dir, "plan.yaml", warmup_text), *out = NULL, args[2048];
  snprintf(args, sizeof args, "plan '%s'", path);
  assert_int_equal(rigor(args, &out), 0);
  assert_non_null(strstr(out, "experiment warmup"));
  assert_non_null(strstr(out, "order latin, seed=7; square of 4 rows, complete"));
  /* Block 1 of the cyclic square starts with w1 and ends with w0. */
  const char *b1 = strstr(out, "  block 1\n");
  assert_non_null(b1);
  assert_non_null(strstr(b1, "     0  v1   warmup=1"));
  assert_non_null(strstr(b1, "timing.warmup=1"));
  assert_non_null(strstr(out, "commands (executed only under --allow-commands):\n"
                              "    ! v1 runner=./measure.sh: ./measure.sh\n"));
  assert_non_null(strstr(out, "    !  1  v1   runner=./measure.sh"));
  free(out);
  snprintf(args, sizeof args, "plan '%s' --only nope", path);
  assert_int_equal(rigor(args, &out), 2);
  free(out);
  free(path);
}

static void test_config_prints_hash(void **state) {
  (void)state;
  char *path = write_file(dir, "cfg.yaml", warmup_text), *out = NULL, args[2048];
  rigor_config_t *cfg = NULL;
  char err[2048];
  assert_int_equal(load(path, NULL, &cfg, err, sizeof err), 0);
  snprintf(args, sizeof args, "config '%s'", path);
  assert_int_equal(rigor(args, &out), 0);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  assert_non_null(doc);
  assert_int_equal(json_array_size(doc), 2);
  json_t *first = json_array_get(doc, 0);
  assert_string_equal(json_string_value(json_object_get(first, "hash")), cfg->experiments[0].hash);
  assert_true(json_equal(json_object_get(first, "config"), cfg->experiments[0].resolved));
  json_decref(doc);
  free(out);
  snprintf(args, sizeof args, "config --canonical --only warmup '%s'", path);
  assert_int_equal(rigor(args, &out), 0);
  json_t *hashed = rigor_experiment_hashed_form(cfg->experiments[0].resolved);
  char *canonical = rigor_canonical_dump(hashed);
  json_decref(hashed);
  size_t n = strlen(canonical);
  assert_memory_equal(out, canonical, n);
  assert_int_equal(out[n], '\n');
  free(canonical);
  free(out);
  rigor_config_free(cfg);
  free(path);
}

/* Every experiment file shipped under configs/<plugin>/ (and the quickstart) validates against the
 * real plugins; `base.yaml` fragments are only read through `extends`. nccl's files (and the
 * cluster examples, which run nccl) are skipped where the nccl plugin was not built. */
static void test_shipped_plugin_configs_validate(void **state) {
  (void)state;
  const char *folders[] = {"configs",        "configs/stream", "configs/x280",   "configs/nccl",
                           "configs/pto_vf", "configs/exec",   "configs/cluster"};
  char nccl_so[4096];
  snprintf(nccl_so, sizeof nccl_so, "%s/nccl.so", RIGOR_PLUGIN_DIR);
  bool have_nccl = access(nccl_so, R_OK) == 0;
  int checked = 0;
  for (size_t f = 0; f < sizeof folders / sizeof *folders; f++) {
    char folder[4096];
    snprintf(folder, sizeof folder, "%s/%s", RIGOR_SOURCE_DIR, folders[f]);
    DIR *d = opendir(folder);
    assert_non_null(d);
    struct dirent *ent;
    while ((ent = readdir(d))) {
      size_t len = strlen(ent->d_name);
      if (len < 6 || strcmp(ent->d_name + len - 5, ".yaml") != 0) continue;
      if (strcmp(ent->d_name, "base.yaml") == 0) continue;
      bool nccl =
          strcmp(folders[f], "configs/nccl") == 0 || strcmp(folders[f], "configs/cluster") == 0;
      if (nccl && !have_nccl) continue;
      char args[8192], *out = NULL;
      snprintf(args, sizeof args, "validate '%s/%s'", folder, ent->d_name);
      int code = rigor(args, &out);
      if (code != 0 || !strstr(out, ": ok ("))
        fail_msg("%s/%s: exit %d: %s", folders[f], ent->d_name, code, out);
      free(out);
      checked++;
    }
    closedir(d);
  }
  assert_true(checked >= 15);
}

/* What the shipped plugins would refuse at init for the params alone, validate refuses first, at
 * the line and column that set it. */
static void test_shipped_plugins_check_params_before_running(void **state) {
  (void)state;
  static const struct {
    const char *file, *text, *said;
  } cases[] = {
      {"stream-sweep.yaml", "schema: 1\nname: s\nplugin: stream\nsweep: {elements: [1000, 2000]}\n",
       "stream-sweep.yaml:4:9: plugin 'stream': param 'elements': varies within the sweep"},
      {"x280-sweep.yaml", "schema: 1\nname: x\nplugin: x280\nsweep: {spin_us: [0, 5]}\n",
       "x280-sweep.yaml:4:9: plugin 'x280': param 'spin_us': differs between points"},
      {"x280-stride.yaml", "schema: 1\nname: x\nplugin: x280\nparams: {alias_stride: 200}\n",
       "plugin 'x280': alias_stride must be a positive multiple of 128 bytes"},
      {"pto_vf-no-traces.yaml", "schema: 1\nname: p\nplugin: pto_vf\nparams: {atol: 0.1}\n",
       "pto_vf-no-traces.yaml:4:9: plugin 'pto_vf': param 'trace_dir': is required"},
      {"nccl-fp8-avg.yaml", "schema: 1\nname: n\nplugin: nccl\nparams: {dtype: f8e4m3, op: avg}\n",
       "nccl-fp8-avg.yaml:4:29: plugin 'nccl': param 'op': avg with dtype f8e4m3"},
  };
  /* nccl is built only where CMake found CUDA and NCCL. */
  char nccl_so[4096];
  snprintf(nccl_so, sizeof nccl_so, "%s/nccl.so", RIGOR_PLUGIN_DIR);
  bool have_nccl = access(nccl_so, R_OK) == 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    if (!have_nccl && strncmp(cases[i].file, "nccl", 4) == 0) continue;
    char *path = write_file(dir, cases[i].file, cases[i].text), *out = NULL, args[4200];
    snprintf(args, sizeof args, "validate '%s' --plugin-path '%s'", path, RIGOR_PLUGIN_DIR);
    int code = rigor(args, &out);
    if (code != 2 || !strstr(out, cases[i].said))
      fail_msg("%s: exit %d, expected 2 and '%s':\n%s", cases[i].file, code, cases[i].said, out);
    free(out);
    free(path);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_validate_exit_codes),
      cmocka_unit_test(test_plan_prints_blocks_and_commands),
      cmocka_unit_test(test_config_prints_hash),
      cmocka_unit_test(test_shipped_plugin_configs_validate),
      cmocka_unit_test(test_shipped_plugins_check_params_before_running),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
