/* Through `rigor run`: a run whose kernels were damaged exits 3 (correctness failed), an honest
 * one exits 0. Through `rigor validate`: what init would refuse for the params alone fails before
 * any run, at the line that set it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static char dir[] = "/tmp/stream_exit_XXXXXX";

static int rigor_run(const char *plugin, const char *fault_params) {
  char config[512], cmd[2048];
  snprintf(config, sizeof config, "%s/experiment.yaml", dir);
  FILE *f = fopen(config, "w");
  assert_non_null(f);
  fprintf(f,
          "schema: 1\n"
          "name: stream-exit\n"
          "plugin: %s\n"
          "params: {elements: 30011%s}\n"
          "sweep: {kernels: classic}\n"
          "timing: {warmup: 1, cycles: 2, iters: 1, agg: 1}\n"
          "output: %s/results.jsonl\n",
          plugin, fault_params, dir);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "'%s' run '%s' --force --plugin-path '%s' --plugin-path '%s' >'%s/out.txt' 2>&1",
           RIGOR_EXE, config, RIGOR_PLUGIN_DIR, RIGOR_TEST_PLUGIN_DIR, dir);
  const int status = system(cmd);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static void test_honest_runs_exit_0(void **state) {
  (void)state;
  assert_int_equal(rigor_run("stream", ""), 0);
  assert_int_equal(rigor_run("stream_faults", ", fault: none"), 0);
}

static void test_each_fault_exits_3(void **state) {
  (void)state;
  const char *faults[] = {
      ", fault: corrupt, fault_kernels: triad",
      ", fault: nan, fault_kernels: copy",
      ", fault: cut, fault_kernels: \"scale,add,triad\"",
      ", fault: skip, fault_kernels: \"scale,add,triad\"",
  };
  for (int i = 0; i < 4; i++)
    if (rigor_run("stream_faults", faults[i]) != 3)
      fail_msg("rigor run with%s did not exit 3", faults[i]);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char buf[1 << 18];
  const size_t got = fread(buf, 1, sizeof buf - 1, f);
  buf[got] = '\0';
  fclose(f);
  return buf;
}

/* An array-shaping param swept: validate names the file, line and column of the sweep's key. */
static void test_sweeping_an_array_shaping_param_fails_validate(void **state) {
  (void)state;
  char config[512], cmd[2048], out[600];
  snprintf(config, sizeof config, "%s/sweep-elements.yaml", dir);
  FILE *f = fopen(config, "w");
  assert_non_null(f);
  fprintf(f,
          "schema: 1\n"
          "name: sweep-elements\n"
          "plugin: stream\n"
          "params: {kernels: copy}\n"
          "sweep: {elements: [30011, 60013]}\n"
          "output: %s/sweep.jsonl\n",
          dir);
  fclose(f);
  snprintf(out, sizeof out, "%s/validate.txt", dir);
  snprintf(cmd, sizeof cmd, "'%s' validate '%s' --plugin-path '%s' >'%s' 2>&1", RIGOR_EXE, config,
           RIGOR_PLUGIN_DIR, out);
  const int status = system(cmd);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 2);
  const char *text = slurp(out);
  char where[600];
  snprintf(where, sizeof where, "%s:5:9: ", config);
  if (!strstr(text, where)) fail_msg("no %s in:\n%s", where, text);
  if (!strstr(text, "plugin 'stream': param 'elements': varies within the sweep"))
    fail_msg("the sweep rule is not in:\n%s", text);
}

static int make_dir(void **state) {
  (void)state;
  return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state) {
  (void)state;
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Arrays that fit in the last-level cache: the report's warnings say in words that the figures
 * are cache bandwidth, once however many runs repeat it. */
static void test_the_report_says_when_the_arrays_fit_in_the_cache(void **state) {
  (void)state;
  assert_int_equal(rigor_run("stream", ""), 0);
  char results[512], cmd[2048], out[600];
  snprintf(results, sizeof results, "%s/results.jsonl", dir);
  if (strstr(slurp(results), "\"stream.llc_bytes\": \"0\"") ||
      strstr(slurp(results), "\"stream.llc_bytes\":\"0\""))
    skip(); /* no cache in this machine's topology: nothing to compare the arrays with */
  snprintf(out, sizeof out, "%s/report.txt", dir);
  snprintf(cmd, sizeof cmd, "'%s' report '%s' >'%s' 2>&1", RIGOR_EXE, results, out);
  const int status = system(cmd);
  assert_true(WIFEXITED(status));
  const char *text = slurp(out);
  const char *warning = strstr(text, "stream.warning: the three arrays");
  if (!warning) fail_msg("no cache warning in the report:\n%s", text);
  assert_non_null(strstr(warning, "cache bandwidth, not memory bandwidth"));
  assert_null(strstr(warning + 1, "stream.warning"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_honest_runs_exit_0),
      cmocka_unit_test(test_each_fault_exits_3),
      cmocka_unit_test(test_sweeping_an_array_shaping_param_fails_validate),
      cmocka_unit_test(test_the_report_says_when_the_arrays_fit_in_the_cache),
  };
  return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
