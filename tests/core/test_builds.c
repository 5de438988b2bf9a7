/* The build axis end to end: two builds of the null plugin in one balanced schedule, each run
 * loading its own build's .so (forked and spawned), the same .so twice (A/A), and builds whose
 * schemas differ refused with exit 2 naming the difference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

#define BUILDS RIGOR_TEST_PLUGIN_DIR "/builds"

/* A folder DIR/NAME holding a copy of the plain null plugin. */
static char *null_folder(const char *name, mode_t mode) {
  char *folder = path_join(scratch, name);
  mkdir(folder, 0755);
  char *to = path_join(folder, "null.so");
  FILE *src = fopen(RIGOR_PLUGIN_DIR "/null.so", "rb"), *dst = fopen(to, "wb");
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, src)) > 0)
    fwrite(buf, 1, n, dst);
  fclose(src), fclose(dst);
  chmod(folder, mode);
  free(to);
  return folder;
}

static cmd_result_t rigor(const char *const *args) {
  return rigor_exec(scratch, args);
}

static json_t *experiment_of(const json_t *recs) {
  size_t i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (!strcmp(json_string_value(json_object_get(rec, "type")), "experiment")) return rec;
  }
  return NULL;
}

/* Warmup 1 (one operation), then cycles of iters x agg: after cycle c the plain build has
 * counted 1 + (c + 1) * 10 * 2 operations, build v2 twice as many. */
static void check_each_run_loaded_its_build(const json_t *recs) {
  size_t i, samples = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    if (strcmp(json_string_value(json_object_get(rec, "type")), "sample") != 0) continue;
    json_int_t variant = json_integer_value(json_object_get(rec, "variant"));
    json_int_t cycle = json_integer_value(json_object_get(rec, "cycle"));
    double ops = json_number_value(json_object_get(json_object_get(rec, "metrics"), "ops"));
    double plain = 1.0 + (double)(cycle + 1) * 10 * 2;
    assert_true(ops == (variant == 0 ? plain : 2 * plain));
    samples++;
  }
  assert_int_equal(samples, 2 * 2 * 3);
}

static void test_two_folders_share_one_schedule(void **st) {
  (void)st;
  char *base = null_folder("old", 0755);
  char yaml[2048];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: ab\nplugin: \"null\"\n"
           "matrix:\n"
           "  build:\n"
           "    - {label: base, plugin_path: old}\n"
           "    - {label: cand, plugin_path: %s/v2}\n"
           "timing: {warmup: 1, cycles: 3, iters: 10, agg: 2}\n"
           "order: {design: mirrored, replicates: 2}\n"
           "output: ab.jsonl\n",
           BUILDS);
  char *cfg = config_in(scratch, "ab.yaml", yaml);
  /* The builds folder lies outside the config's folder: named there only knowingly. */
  const char *args[] = {"run", cfg, "--no-report", "--allow-external-extends", NULL};
  cmd_result_t r = rigor(args);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "ab.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 4);
  check_each_run_loaded_its_build(recs);
  json_t *exp = experiment_of(recs);
  json_t *builds = json_object_get(exp, "builds");
  assert_int_equal(json_array_size(builds), 2);
  json_t *b0 = json_array_get(builds, 0), *b1 = json_array_get(builds, 1);
  assert_string_equal(json_string_value(json_object_get(b0, "label")), "base");
  assert_string_equal(json_string_value(json_object_get(b1, "label")), "cand");
  assert_string_equal(json_string_value(json_object_get(b0, "version")), "1.0");
  assert_string_equal(json_string_value(json_object_get(b1, "version")), "2.0");
  assert_string_equal(json_string_value(json_object_get(b0, "plugin_path")), base);
  const char *s0 = json_string_value(json_object_get(b0, "sha256"));
  char *s1 = strdup(json_string_value(json_object_get(b1, "sha256")));
  assert_int_equal(strlen(s0), 64);
  assert_string_not_equal(s0, s1);
  /* Each variant's settings name its build's folder, absolute and canonical. */
  json_t *settings =
      json_object_get(json_array_get(json_object_get(exp, "variants"), 1), "settings");
  assert_string_equal(
      json_string_value(json_object_get(json_object_get(settings, "build"), "plugin_path")),
      BUILDS "/v2");
  json_decref(recs);

  /* The report names both builds with their versions and hashes. */
  const char *rep_args[] = {"report", out, NULL};
  cmd_result_t rep = rigor(rep_args);
  assert_int_equal(rep.exit_code, 0);
  const char *table = strstr(rep.out, "builds (");
  assert_non_null(table);
  assert_non_null(strstr(table, "cand"));
  assert_non_null(strstr(table, "2.0"));
  assert_non_null(strstr(table, s1));
  cmd_result_free(&rep);
  free(s1);

  /* A run started as a new program (a padded environment) is told its build's folder. */
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: ab\nplugin: \"null\"\n"
           "matrix:\n"
           "  build:\n"
           "    - {label: base, plugin_path: old}\n"
           "    - {label: cand, plugin_path: %s/v2}\n"
           "timing: {warmup: 1, cycles: 3, iters: 10, agg: 2}\n"
           "environment: {randomize_env: true}\n"
           "order: {design: mirrored, replicates: 2}\n"
           "output: spawned.jsonl\n",
           BUILDS);
  char *spawned = config_in(scratch, "spawned.yaml", yaml);
  const char *sargs[] = {"run", spawned, "--no-report", "--allow-external-extends", NULL};
  cmd_result_t s = rigor(sargs);
  assert_int_equal(s.exit_code, 0);
  char *sout = path_join(scratch, "spawned.jsonl");
  recs = results_read(sout);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 4);
  check_each_run_loaded_its_build(recs);
  json_decref(recs);
  cmd_result_free(&s);
  free(sout), free(spawned);
  free(out);
  cmd_result_free(&r);
  free(cfg), free(base);
}

/* --build replaces the file's axis (here: adds one); the same folder twice is the A/A case,
 * here across processes (interleave: none), so each build is a variant of its own runs. */
static void test_same_so_twice_from_the_command_line(void **st) {
  (void)st;
  /* The gate is opened wide so that this machine's noise cannot make the rows `unstable`: the
   * contrast must then read `same` within a threshold of 50%. */
  char *cfg = config_in(scratch, "aa.yaml",
                        "schema: 1\nname: aa\nplugin: \"null\"\n"
                        "matrix: {spin_ns: [20000, 40000]}\n"
                        "timing: {warmup: 0, cycles: 3, iters: 10}\n"
                        "order: {design: latin, replicates: 4, interleave: none}\n"
                        "gate: {cv_max: 1000%}\n"
                        "output: aa.jsonl\n");
  const char *plan[] = {
      "plan", cfg, "--build", "a=" RIGOR_PLUGIN_DIR, "--build", "b=" RIGOR_PLUGIN_DIR, NULL};
  cmd_result_t p = rigor(plan);
  assert_int_equal(p.exit_code, 0);
  assert_non_null(strstr(p.out, "4 variants x 4 blocks"));
  assert_non_null(strstr(p.out, "build=a, spin_ns=20000"));
  assert_non_null(strstr(p.out, "build b: " RIGOR_PLUGIN_DIR));
  cmd_result_free(&p);
  const char *args[] = {
      "run", cfg, "--no-report", "--build", "a=" RIGOR_PLUGIN_DIR, "--build", "b=" RIGOR_PLUGIN_DIR,
      NULL};
  cmd_result_t r = rigor(args);
  assert_int_equal(r.exit_code, 0);
  char *out = path_join(scratch, "aa.jsonl");
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 16);
  json_t *builds = json_object_get(experiment_of(recs), "builds");
  assert_int_equal(json_array_size(builds), 2);
  assert_string_equal(json_string_value(json_object_get(json_array_get(builds, 0), "sha256")),
                      json_string_value(json_object_get(json_array_get(builds, 1), "sha256")));
  json_decref(recs);
  const char *rep_args[] = {"report", out, NULL};
  cmd_result_t rep = rigor(rep_args);
  assert_non_null(strstr(rep.out, "builds 'a' and 'b' have identical plugins"));
  cmd_result_free(&rep);
  const char *cmp_args[] = {"compare", out,        "--axis", "build", "--threshold",
                            "50%",     "--format", "json",   NULL};
  cmd_result_t cmp = rigor(cmp_args);
  assert_int_equal(cmp.exit_code, 0);
  json_error_t jerr;
  json_t *doc = json_loads(cmp.out, 0, &jerr);
  assert_non_null(doc);
  json_t *contrasts = json_object_get(doc, "contrasts");
  assert_int_equal(json_array_size(contrasts), 2); /* one per spin_ns cell */
  size_t i;
  json_t *c;
  json_array_foreach(contrasts, i, c) {
    /* An A/A claims no direction; whether 4 blocks show `same` (the whole interval inside the
     * 50% threshold) depends on the machine's noise, so `inconclusive` is right too. */
    const char *verdict = json_string_value(json_object_get(c, "verdict"));
    if (strcmp(verdict, "same") != 0 && strcmp(verdict, "inconclusive") != 0)
      fail_msg("A/A contrast %s: %s", verdict, json_string_value(json_object_get(c, "reason")));
    assert_int_equal(json_integer_value(json_object_get(c, "pairs")), 4);
  }
  json_decref(doc);
  cmd_result_free(&cmp);
  free(out);
  cmd_result_free(&r);

  const char *bad[] = {"run", cfg, "--build", "nolabel", NULL};
  r = rigor(bad);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "--build takes LABEL=DIR"));
  cmd_result_free(&r);
  free(cfg);
}

static void expect_refused(const char *cfg, const char *build_dir, const char *needle) {
  char arg[4096];
  snprintf(arg, sizeof arg, "cand=%s", build_dir);
  const char *args[] = {"validate", cfg, "--build", "base=" RIGOR_PLUGIN_DIR, "--build", arg, NULL};
  cmd_result_t r = rigor(args);
  assert_int_equal(r.exit_code, 2);
  if (!strstr(r.err, needle)) fail_msg("expected '%s' in:\n%s", needle, r.err);
  cmd_result_free(&r);
}

static void test_schema_mismatch_is_refused(void **st) {
  (void)st;
  char *cfg = config_in(scratch, "m.yaml",
                        "schema: 1\nname: m\nplugin: \"null\"\n"
                        "timing: {cycles: 2}\n"
                        "output: m.jsonl\n");
  expect_refused(cfg, BUILDS "/adds_param", "param 'extra' is added");
  expect_refused(cfg, BUILDS "/retypes_param", "param 'spin_ns' has type int (uint in the other)");
  expect_refused(cfg, BUILDS "/adds_param", "--build cand=" BUILDS "/adds_param: build 'cand'");
  /* A folder without the plugin, and a folder anyone may write to. */
  expect_refused(cfg, scratch, "build 'cand': plugin 'null': no plugin named 'null'");
  char *open_dir = null_folder("open", 0777);
  expect_refused(cfg, open_dir, "world-writable");
  free(open_dir);

  /* In the file, the message points at the build's entry. */
  char yaml[2048];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: m\nplugin: \"null\"\n"
           "matrix:\n"
           "  build:\n"
           "    - {label: base, plugin_path: %s}\n"
           "    - {label: cand, plugin_path: %s/adds_param}\n"
           "output: m.jsonl\n",
           RIGOR_PLUGIN_DIR, BUILDS);
  char *in_file = config_in(scratch, "f.yaml", yaml);
  const char *args[] = {"run", in_file, "--allow-external-extends", NULL};
  cmd_result_t r = rigor(args);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "f.yaml:7:7: build 'cand' ("));
  assert_non_null(strstr(r.err, "cannot share an experiment with build 'base'"));
  assert_non_null(strstr(r.err, "param 'extra' is added"));
  char *out = path_join(scratch, "m.jsonl");
  assert_null(read_file(out)); /* refused before anything ran */
  free(out);
  cmd_result_free(&r);
  free(in_file);
  free(cfg);
}

/* A folder of the marker "null.so", whose constructor leaves DIR/mark when it is loaded. */
static char *marker_folder(const char *name) {
  char *folder = path_join(scratch, name);
  mkdir(folder, 0755);
  char *to = path_join(folder, "null.so");
  FILE *src = fopen(BUILDS "/marker/null.so", "rb"), *dst = fopen(to, "wb");
  assert_non_null(src);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, src)) > 0)
    fwrite(buf, 1, n, dst);
  fclose(src), fclose(dst);
  free(to);
  return folder;
}

static bool marked(void) {
  char *mark = path_join(scratch, "mark");
  bool there = access(mark, F_OK) == 0;
  free(mark);
  return there;
}

/* A build's plugin_path in a file is held to extends' rule: validate, plan and config refuse a
 * folder outside the config's own before loading anything from it (no constructor runs). */
static void test_config_chosen_folder_stays_inside(void **st) {
  (void)st;
  char *outside = marker_folder("outside");
  char *proj = path_join(scratch, "proj");
  mkdir(proj, 0755);
  char *mark = path_join(scratch, "mark");
  setenv("RIGOR_TEST_MARK", mark, 1);
  const char *const paths[] = {"../outside", outside};
  for (size_t i = 0; i < 2; i++) {
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "schema: 1\nname: esc\nplugin: \"null\"\n"
             "matrix:\n  build:\n    - {label: cand, plugin_path: %s}\noutput: esc.jsonl\n",
             paths[i]);
    char *cfg = config_in(proj, "esc.yaml", yaml);
    const char *const commands[] = {"validate", "plan", "config", "run"};
    for (size_t k = 0; k < 4; k++) {
      const char *args[] = {commands[k], cfg, NULL};
      cmd_result_t r = rigor(args);
      assert_int_equal(r.exit_code, 2);
      assert_non_null(strstr(r.err, "esc.yaml:6:7: build 'cand': plugin_path"));
      assert_non_null(strstr(r.err, "is outside the folder of"));
      assert_non_null(strstr(r.err, "--build cand=DIR"));
      cmd_result_free(&r);
      assert_false(marked());
    }
    free(cfg);
  }
  /* On the command line the folder is the user's own choice. */
  char *cfg =
      config_in(proj, "cli.yaml", "schema: 1\nname: cli\nplugin: \"null\"\noutput: cli.jsonl\n");
  const char *args[] = {"validate", cfg, "--build", "cand=" BUILDS "/v2", NULL};
  cmd_result_t r = rigor(args);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  unsetenv("RIGOR_TEST_MARK");
  free(cfg), free(mark), free(proj), free(outside);
}

/* A shared base's plugin folder that others could write is refused before it is loaded. */
static void test_shared_base_folder_is_trusted_first(void **st) {
  (void)st;
  char *shared = path_join(scratch, "shared");
  mkdir(shared, 0755);
  char *open_folder = path_join(shared, "w");
  mkdir(open_folder, 0755);
  free(marker_folder("shared/w/inner"));
  chmod(open_folder, 0777);
  free(config_in(shared, "team.yaml",
                 "schema: 1\nmatrix:\n  build:\n    - {label: t, plugin_path: w/inner}\n"));
  char *mark = path_join(scratch, "mark");
  setenv("RIGOR_TEST_MARK", mark, 1);
  char *cfg = config_in(scratch, "uses.yaml",
                        "schema: 1\nextends: team.yaml\nname: uses\nplugin: \"null\"\n"
                        "output: uses.jsonl\n");
  const char *args[] = {"validate", cfg, "--config-path", shared, NULL};
  cmd_result_t r = rigor(args);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "of the shared base"));
  assert_non_null(strstr(r.err, "is world-writable"));
  cmd_result_free(&r);
  assert_false(marked());
  unsetenv("RIGOR_TEST_MARK");
  chmod(open_folder, 0755);
  free(cfg), free(mark), free(open_folder), free(shared);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_two_folders_share_one_schedule, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_same_so_twice_from_the_command_line, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_schema_mismatch_is_refused, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_config_chosen_folder_stays_inside, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_shared_base_folder_is_trusted_first, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
