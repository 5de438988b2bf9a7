/* The experiment hash leaves out the free-text description: fixing a typo in it keeps the hash,
 * so `rigor run --resume` still finishes a results file; `rigor config` still shows it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_files.h"

#include "canonical.h"
#include "digest.h"
#include "experiment.h"
#include "support.h"

static char *dir;

static int setup(void **state) {
  (void)state;
  dir = scratch_dir("hash");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(dir);
  return 0;
}

/* One experiment of the shipped null plugin; %s is the description line. */
static const char experiment_fmt[] = "schema: 1\n"
                                     "name: typo\n"
                                     "%s"
                                     "plugin: \"null\"\n"
                                     "params: {spin_ns: %s}\n"
                                     "matrix: {bytes: [1KiB, 2KiB]}\n"
                                     "order: {design: mirrored, replicates: 2}\n"
                                     "timing: {warmup: 1, cycles: 2, iters: 10}\n";

static char *write_experiment(const char *name, const char *description_line, const char *spin) {
  char text[2048];
  snprintf(text, sizeof text, experiment_fmt, description_line, spin);
  return write_file(dir, name, text);
}

static rigor_config_t *load_ok(const char *path) {
  char err[4096] = "";
  rigor_config_t *cfg = NULL;
  if (load(path, NULL, &cfg, err, sizeof err) != 0) fail_msg("%s", err);
  return cfg;
}

static void test_description_is_not_hashed(void **state) {
  (void)state;
  char *none = write_experiment("none.yaml", "", "100");
  char *typo = write_experiment("typo.yaml", "description: harness cost, frist try\n", "100");
  char *fixed = write_experiment("fixed.yaml", "description: harness cost, first try\n", "100");
  char *other = write_experiment("other.yaml", "description: harness cost, first try\n", "200");
  rigor_config_t *a = load_ok(none), *b = load_ok(typo), *c = load_ok(fixed), *d = load_ok(other);
  const rigor_experiment_t *eb = &b->experiments[0];
  assert_string_equal(a->experiments[0].hash, eb->hash);
  assert_string_equal(c->experiments[0].hash, eb->hash);
  assert_string_not_equal(d->experiments[0].hash, eb->hash); /* what runs is still hashed */
  /* The description stays in the resolved form; the hashed form is it without the description,
   * and the hash is the SHA-256 of that form's canonical text. */
  assert_string_equal(json_string_value(json_object_get(eb->resolved, "description")),
                      "harness cost, frist try");
  json_t *hashed = rigor_experiment_hashed_form(eb->resolved);
  assert_non_null(hashed);
  assert_null(json_object_get(hashed, "description"));
  assert_int_equal(json_object_size(hashed), json_object_size(eb->resolved) - 1);
  assert_non_null(json_object_get(hashed, "settings"));
  assert_non_null(json_object_get(hashed, "name"));
  char *dump = rigor_canonical_dump(hashed), hex[65];
  rigor_sha256_hex(dump, strlen(dump), hex);
  assert_string_equal(hex, eb->hash);
  free(dump);
  json_decref(hashed);
  /* The source object is untouched. */
  assert_non_null(json_object_get(eb->resolved, "description"));
  rigor_config_free(a), rigor_config_free(b), rigor_config_free(c), rigor_config_free(d);
  free(none), free(typo), free(fixed), free(other);
}

static void test_config_shows_description_and_prints_hashed_text(void **state) {
  (void)state;
  char *path = write_experiment("shown.yaml", "description: what the team measures\n", "100");
  rigor_config_t *cfg = load_ok(path);
  char args[4096], *out = NULL;
  snprintf(args, sizeof args, "config '%s'", path);
  assert_int_equal(run_rigor(args, &out), 0);
  json_error_t jerr;
  json_t *doc = json_loads(out, 0, &jerr);
  assert_non_null(doc);
  json_t *config = json_object_get(json_array_get(doc, 0), "config");
  assert_string_equal(json_string_value(json_object_get(config, "description")),
                      "what the team measures");
  assert_string_equal(json_string_value(json_object_get(json_array_get(doc, 0), "hash")),
                      cfg->experiments[0].hash);
  json_decref(doc);
  free(out);
  snprintf(args, sizeof args, "config --canonical '%s'", path);
  assert_int_equal(run_rigor(args, &out), 0);
  assert_null(strstr(out, "what the team measures"));
  size_t n = strlen(out);
  assert_true(n > 1 && out[n - 1] == '\n');
  char hex[65];
  rigor_sha256_hex(out, n - 1, hex);
  assert_string_equal(hex, cfg->experiments[0].hash);
  free(out);
  rigor_config_free(cfg);
  free(path);
}

static size_t count(const char *text, const char *needle) {
  size_t k = 0;
  for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
    k++;
  return k;
}

static char *slurp(const char *path) {
  char *text = test_slurp(path, NULL);
  assert_non_null(text);
  return text;
}

/* A results file cut after its first run, as a killed `rigor run` leaves it, is finished by the
 * file with the corrected description; a file that changes what runs is refused. */
static void test_resume_with_fixed_description(void **state) {
  (void)state;
  char *typo = write_experiment("run-typo.yaml", "description: harness cost, frist try\n", "100");
  char *fixed = write_experiment("run-fixed.yaml", "description: harness cost, first try\n", "100");
  char *changed =
      write_experiment("run-changed.yaml", "description: harness cost, first try\n", "300");
  char results[4096], args[8192], *out = NULL;
  snprintf(results, sizeof results, "%s/typo.jsonl", dir);
  snprintf(args, sizeof args, "run '%s' -o '%s' --no-report", typo, results);
  if (run_rigor(args, &out) != 0) fail_msg("%s", out);
  free(out);
  char *full = slurp(results);
  assert_int_equal(count(full, "\"type\":\"run\""), 4);
  const char *first_run = strstr(full, "\"type\":\"run\"");
  const char *cut = strchr(first_run, '\n') + 1;
  FILE *f = fopen(results, "wb");
  assert_non_null(f);
  fwrite(full, 1, (size_t)(cut - full), f);
  fclose(f);

  snprintf(args, sizeof args, "run '%s' -o '%s' --resume --no-report", fixed, results);
  if (run_rigor(args, &out) != 0) fail_msg("%s", out);
  free(out);
  char *resumed = slurp(results);
  assert_int_equal(count(resumed, "\"type\":\"run\""), 4);
  assert_int_equal(count(resumed, "\"type\":\"experiment\""), 1);
  assert_int_equal(count(resumed, "\"status\":\"ok\",\"reason\""), 4);
  /* The experiment record is the one first written, description and all. */
  assert_non_null(strstr(resumed, "harness cost, frist try"));

  snprintf(args, sizeof args, "run '%s' -o '%s' --resume --no-report", changed, results);
  assert_int_equal(run_rigor(args, &out), 2);
  assert_non_null(strstr(out, "cannot resume experiment 'typo'"));
  assert_non_null(strstr(out, "spin_ns"));
  free(out);
  free(full), free(resumed), free(typo), free(fixed), free(changed);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_description_is_not_hashed),
      cmocka_unit_test(test_config_shows_description_and_prints_hashed_text),
      cmocka_unit_test(test_resume_with_fixed_description),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
