/* Variant labels ("count=1, noise=same-core") name one variant each and split back into their
 * axes: a label or formatted value that holds a separator, or two values of an axis that format
 * alike, are refused at the value with file:line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "experiment.h"
#include "support.h"

static char *dir;

static int setup(void **state) {
  (void)state;
  dir = scratch_dir("labels");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(dir);
  return 0;
}

static char *with_matrix(const char *matrix) {
  size_t n = strlen(matrix) + 128;
  char *text = malloc(n);
  snprintf(text, n, "schema: 1\nname: labels\nplugin: cfgfix\nmatrix:\n%s", matrix);
  return text;
}

static rigor_config_t *load_matrix(const char *matrix) {
  char *text = with_matrix(matrix), err[4096] = "";
  char *path = write_file(dir, "ok.yaml", text);
  rigor_config_t *cfg = NULL;
  if (load(path, NULL, &cfg, err, sizeof err) != 0) fail_msg("%s", err);
  free(text), free(path);
  return cfg;
}

/* The first line of the error, without the scratch folder. */
static char *matrix_error(const char *matrix) {
  char *text = with_matrix(matrix), err[4096] = "";
  char *path = write_file(dir, "bad.yaml", text);
  rigor_config_t *cfg = NULL;
  assert_int_equal(load(path, NULL, &cfg, err, sizeof err), RIGOR_ECONFIG);
  assert_null(cfg);
  free(text), free(path);
  size_t n = strlen(dir);
  return first_line(strncmp(err, dir, n) == 0 ? err + n + 1 : err);
}

static void expect_error(const char *matrix, const char *expect) {
  char *line = matrix_error(matrix);
  if (strcmp(line, expect) != 0) fail_msg("\n  expected: %s\n  got:      %s", expect, line);
  free(line);
}

/* How many values of matrix axis k carry `label` (from the canonical matrix). */
static size_t values_labelled(const json_t *matrix, size_t k, const char *label) {
  const json_t *values =
      json_object_get(json_array_get(json_object_get(matrix, "axes"), k), "values");
  size_t i, n = 0;
  json_t *v;
  json_array_foreach(values, i, v) n +=
      strcmp(json_string_value(json_object_get(v, "label")), label) == 0;
  return n;
}

/* Every label of a matrix with labelled, formatted, zipped and core-field axes is distinct and
 * splits on ", " and "=" back into its axes' keys, each part one value's label. */
static void test_labels_split_back_into_axes(void **state) {
  (void)state;
  rigor_config_t *cfg =
      load_matrix("  count: [1, 2, {label: three-ish, value: 3}]\n"
                  "  bytes: [1KiB, 1MiB, {label: 'big,odd', value: 1GiB}]\n"
                  "  note: [a, 'b,c', 'd e']\n"
                  "  timing.blocking: [batch, each]\n"
                  "  environment.noise: [{label: idle}, [{kind: cpu, cpus: [0]}]]\n"
                  "  zip: [[bytes, note]]\n");
  const rigor_experiment_t *e = &cfg->experiments[0];
  const json_t *matrix = json_object_get(e->resolved, "matrix");
  assert_int_equal(e->n_variants, 3 * 3 * 2 * 2);
  const char *keys[] = {"count", "bytes", "note", "blocking", "noise"};
  for (uint32_t i = 0; i < e->n_variants; i++) {
    for (uint32_t j = 0; j < i; j++)
      assert_string_not_equal(e->variants[i].label, e->variants[j].label);
    char *copy = strdup(e->variants[i].label);
    size_t part = 0;
    for (char *p = copy; p; part++) {
      char *next = strstr(p, ", ");
      if (next) *next = '\0';
      char *eq = strchr(p, '=');
      assert_non_null(eq);
      *eq = '\0';
      assert_true(part < 5);
      assert_string_equal(p, keys[part]);
      assert_int_equal(values_labelled(matrix, part, eq + 1), 1);
      p = next ? next + 2 : NULL;
    }
    assert_int_equal(part, 5);
    free(copy);
  }
  assert_string_equal(e->variants[0].label,
                      "count=1, bytes=1KiB, note=a, blocking=batch, noise=idle");
  assert_string_equal(e->variants[e->n_variants - 1].label,
                      "count=three-ish, bytes=big,odd, note=d e, blocking=each, noise=cpu@0");
  rigor_config_free(cfg);
}

static void test_separator_in_a_label_is_refused_at_the_label(void **state) {
  (void)state;
  expect_error("  count: [1, {label: 'two, three', value: 2}]\n",
               "bad.yaml:5:22: label 'two, three' of axis 'count' holds ', ', which separates one "
               "axis from the next in variant labels ('count=two, three'); choose a label "
               "without '=' or ', '");
  expect_error("  environment.noise:\n    - {label: idle}\n    - {label: cpu=0, burners: {cpus: "
               "[0]}}\n",
               "bad.yaml:7:15: label 'cpu=0' of axis 'environment.noise' holds '=', which "
               "separates an axis from its value in variant labels ('noise=cpu=0'); choose a "
               "label without '=' or ', '");
}

/* Build labels obey the same rule, whether the file gives them or --build does. */
static void test_separator_in_a_build_label_is_refused(void **state) {
  (void)state;
  expect_error("  build:\n    - {label: 'p, q', plugin_path: " RIGOR_TEST_PLUGIN_DIR "}\n"
               "    - {label: r, plugin_path: " RIGOR_TEST_PLUGIN_DIR "}\n",
               "bad.yaml:6:7: label 'p, q' of axis 'build' holds ', ', which separates one axis "
               "from the next in variant labels ('build=p, q'); choose a label without '=' or "
               "', '");

  char *path = write_file(dir, "plain.yaml", "schema: 1\nname: labels\nplugin: cfgfix\n");
  const rigor_build_opt_t builds[] = {{"b, x", RIGOR_TEST_PLUGIN_DIR},
                                      {"c", RIGOR_TEST_PLUGIN_DIR}};
  const rigor_config_opts_t with_builds = {.builds = builds, .n_builds = 2};
  rigor_config_t *cfg = NULL;
  char err[4096] = "";
  assert_int_equal(load(path, &with_builds, &cfg, err, sizeof err), RIGOR_ECONFIG);
  assert_null(cfg);
  if (!strstr(err, "--build b, x=" RIGOR_TEST_PLUGIN_DIR ": label 'b, x' of axis 'build' holds "
                   "', ', which separates one axis from the next"))
    fail_msg("got: %s", err);
  free(path);
}

static void test_separator_in_a_formatted_value_is_refused_at_the_value(void **state) {
  (void)state;
  expect_error("  count: [1, 2]\n  note: [plain, 'x=1']\n",
               "bad.yaml:6:17: value 'x=1' of axis 'note' would read 'note=x=1' in variant "
               "labels, where '=' separates an axis from its value; give it a label without '=' "
               "or ', ': {label: NAME, value: ...}");
  expect_error("  note: [plain, 'a, b']\n",
               "bad.yaml:5:17: value 'a, b' of axis 'note' would read 'note=a, b' in variant "
               "labels, where ', ' separates one axis from the next; give it a label without "
               "'=' or ', ': {label: NAME, value: ...}");
  /* The same value with a label is fine: the label names the variant. */
  rigor_config_t *cfg = load_matrix("  note: [plain, {label: x1, value: 'x=1'}]\n");
  assert_string_equal(cfg->experiments[0].variants[1].label, "note=x1");
  assert_string_equal(
      json_string_value(json_object_get(
          json_object_get(cfg->experiments[0].variants[1].settings, "params"), "note")),
      "x=1");
  rigor_config_free(cfg);
}

static void test_values_that_format_alike_are_refused(void **state) {
  (void)state;
  expect_error("  ratio:\n    - 0.1\n    - 0.1000000000000001\n",
               "bad.yaml:7:7: axis 'ratio': the values '0.1000000000000001' and '0.1' (line 6) "
               "both read '0.1' in variant labels; give one a label: {label: NAME, value: "
               "0.1000000000000001}");
  /* A label that another value reads as. */
  expect_error("  bytes: [1KiB, {label: 1KiB, value: 2KiB}]\n",
               "bad.yaml:5:38: axis 'bytes' uses the label '1KiB' twice");
  /* Labelled, the two values are distinct variants. */
  rigor_config_t *cfg =
      load_matrix("  ratio: [0.1, {label: tiny-bit-more, value: 0.1000000000000001}]\n");
  assert_int_equal(cfg->experiments[0].n_variants, 2);
  assert_string_equal(cfg->experiments[0].variants[1].label, "ratio=tiny-bit-more");
  rigor_config_free(cfg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_labels_split_back_into_axes),
      cmocka_unit_test(test_separator_in_a_label_is_refused_at_the_label),
      cmocka_unit_test(test_separator_in_a_build_label_is_refused),
      cmocka_unit_test(test_separator_in_a_formatted_value_is_refused_at_the_value),
      cmocka_unit_test(test_values_that_format_alike_are_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
