/* scripts/device-check-nccl.sh without a device: its commands under --dry-run, its experiment
 * files against the real rigor and the real plugin schema, and its tables from stand-ins for rigor
 * and nccl-tests (fakes/) that log their arguments and print what the real tools print. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define SCRIPT RIGOR_SOURCE_DIR "/scripts/device-check-nccl.sh"
#define FAKES  RIGOR_SOURCE_DIR "/plugins/nccl/tests/fakes"

static const char *const collectives[] = {"all_reduce", "all_gather", "reduce_scatter",
                                          "broadcast",  "reduce",     "alltoall",
                                          "sendrecv",   "gather",     "scatter"};
#define N_COLLECTIVES (sizeof collectives / sizeof collectives[0])

static char dir[256];

static int sh(const char *fmt, ...) {
  char cmd[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  int status = system(cmd);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = calloc((size_t)n + 1, 1);
  if (fread(text, 1, (size_t)n, f) != (size_t)n) text[0] = '\0';
  fclose(f);
  return text;
}

static size_t count(const char *text, const char *needle) {
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

/* A folder with the nccl-tests stand-in linked under every *_perf name. */
static int setup(void **st) {
  (void)st;
  snprintf(dir, sizeof dir, "%s/device-check-XXXXXX", RIGOR_BINARY_DIR);
  if (!mkdtemp(dir)) return -1;
  if (sh("mkdir -p %s/nccl-tests", dir) != 0) return -1;
  for (size_t i = 0; i < N_COLLECTIVES; i++)
    if (sh("ln -s %s/nccl_tests_perf %s/nccl-tests/%s_perf", FAKES, dir, collectives[i]) != 0)
      return -1;
  return 0;
}

static int teardown(void **st) {
  (void)st;
  return sh("rm -rf %s", dir);
}

static void test_script_is_shellcheck_clean(void **st) {
  (void)st;
  if (sh("command -v shellcheck >/dev/null") != 0) skip();
  assert_int_equal(sh("shellcheck %s", SCRIPT), 0);
}

static void test_dry_run_prints_every_command_and_runs_none(void **st) {
  (void)st;
  int rc = sh("cd %s && FAKE_LOG=%s/dry.log OUT_DIR=%s/dry RIGOR=%s/rigor %s --dry-run "
              "%s/nccl-tests > %s/dry.txt 2>&1",
              dir, dir, dir, FAKES, SCRIPT, dir, dir);
  assert_int_equal(rc, 0);
  char path[512];
  snprintf(path, sizeof path, "%s/dry.log", dir);
  assert_null(slurp(path)); /* nothing ran */
  snprintf(path, sizeof path, "%s/dry.txt", dir);
  char *out = slurp(path);
  assert_non_null(out);
  /* Per collective: two rigor runs and two nccl-tests runs, ABBA, with nccl-tests' flags. */
  for (size_t i = 0; i < N_COLLECTIVES; i++) {
    char line[1024];
    snprintf(line, sizeof line,
             "%s/nccl-tests/%s_perf -b 1M -e 1G -f 2 -g 1 -w 5 -n 20 -m 1 -z 0 -N 10 -c 1 -d "
             "float -o sum -a 3 -C 0 > %s/dry/nccl-tests-%s-",
             dir, collectives[i], dir, collectives[i]);
    assert_int_equal(count(out, line), 2);
    snprintf(line, sizeof line, "rigor run %s/dry/parity-%s.yaml -o %s/dry/rigor-%s-", dir,
             collectives[i], dir, collectives[i]);
    assert_int_equal(count(out, line), 2);
  }
  assert_non_null(strstr(out, "rigor run " /* the check-cost experiment */));
  assert_non_null(strstr(out, "/dry/cost.yaml -o "));
  assert_non_null(strstr(out, "--only warmup --allow-external-extends"));
  assert_non_null(strstr(out, "--only iterations --allow-external-extends"));
  assert_non_null(strstr(out, "report " /* the ch09 tables */));
  free(out);
  /* Every experiment file it wrote is valid against the real plugin's schema. */
  rc = sh("cd %s/dry && for f in *.yaml; do %s validate \"$f\" --allow-external-extends "
          ">/dev/null || exit 1; done",
          dir, RIGOR_EXE);
  assert_int_equal(rc, 0);
  rc = sh("%s config %s/dry/parity-gather.yaml | grep -q '\"warmup_sizes\": \"powers_of_two\"'",
          RIGOR_EXE, dir);
  assert_int_equal(rc, 0);
}

static const char *table_row(const char *tables, const char *prefix) {
  const char *row = strstr(tables, prefix);
  if (!row) fail_msg("no row '%s'", prefix);
  return row;
}

static void test_tables_from_stand_ins(void **st) {
  (void)st;
  int rc = sh("cd %s && FAKE_LOG=%s/run.log FAKE_WRONG=reduce FAKE_NT_WRONG=broadcast "
              "COLLECTIVES='all_reduce broadcast reduce' OUT_DIR=%s/run TABLES=%s/tables.md "
              "RIGOR=%s/rigor %s %s/nccl-tests > %s/run.txt 2>&1",
              dir, dir, dir, dir, FAKES, SCRIPT, dir, dir);
  char path[512];
  snprintf(path, sizeof path, "%s/tables.md", dir);
  char *tables = slurp(path);
  assert_non_null(tables);
  assert_int_equal(rc, 0);
  /* Only the reported sizes, out before in; the stand-ins differ by 2%. */
  assert_int_equal(count(tables, "| all_reduce | "), 6);
  assert_null(strstr(tables, "| all_reduce | 2097152 |"));
  const char *row = table_row(tables, "| all_reduce | 1048576 | out | 20 | 7.243 | 20 | 7.390 | ");
  assert_non_null(strstr(row, "| 0.9801 | 0.980 - 0.980 | 0 | 0 |"));
  assert_true(strstr(tables, "| all_reduce | 1048576 | out |") <
              strstr(tables, "| all_reduce | 1048576 | in |"));
  /* Both tools' check counts: nccl-tests' #wrong summed over its lines, rigor's over samples. */
  row = table_row(tables, "| broadcast | 67108864 | out |");
  assert_non_null(strstr(row, "| 0 | 20 |\n"));
  row = table_row(tables, "| reduce | 1073741824 | in | 0 | nan |");
  assert_non_null(strstr(row, "| 60 | 0 |\n"));
  assert_non_null(strstr(tables, "- reduce: rigor runs 2 ok"));
  /* The check cost, and the ch09 reports. */
  assert_non_null(strstr(tables, "| device | 134217728 | 5 | 0.002000 s |"));
  assert_non_null(strstr(tables, "| host | 134217728 | 5 | 0.400000 s |"));
  assert_non_null(strstr(tables, "host / device: 200.0x"));
  assert_non_null(strstr(tables, "## experiment warmup (report of ch09-warmup.jsonl)"));
  assert_non_null(strstr(tables, "## experiment iterations (report of ch09-iterations.jsonl)"));
  assert_non_null(strstr(tables, "Device time per stage (s): parity="));
  free(tables);
  /* ABBA: rigor, nccl-tests, nccl-tests, rigor for each collective. */
  snprintf(path, sizeof path, "%s/run.log", dir);
  char *log = slurp(path);
  assert_non_null(log);
  const char *a = strstr(log, "rigor run ");
  const char *b = strstr(log, "all_reduce_perf ");
  const char *b2 = b ? strstr(b + 1, "all_reduce_perf ") : NULL;
  const char *a2 = strstr(a + 1, "rigor run ");
  assert_true(a && b && b2 && a2 && a < b && b < b2 && b2 < a2);
  assert_int_equal(count(log, "rigor run "), 3 * 2 + 1 + 2);
  assert_int_equal(count(log, "rigor report "), 2);
  free(log);
}

static void test_a_failed_run_fails_the_script(void **st) {
  (void)st;
  int rc = sh("cd %s && FAKE_LOG=%s/fail.log FAKE_FAIL=1 COLLECTIVES=sendrecv REPEATS=1 "
              "STAGES=parity OUT_DIR=%s/fail RIGOR=%s/rigor %s %s/nccl-tests > %s/fail.txt 2>&1",
              dir, dir, dir, FAKES, SCRIPT, dir, dir);
  assert_int_equal(rc, 1);
  char path[512];
  snprintf(path, sizeof path, "%s/fail/tables.md", dir);
  char *tables = slurp(path);
  assert_non_null(tables); /* the tables are still written */
  assert_non_null(strstr(tables, "| sendrecv | 1073741824 | in |"));
  assert_null(strstr(tables, "## Cost"));
  free(tables);
  rc = sh("STAGES=bogus OUT_DIR=%s/bogus RIGOR=%s/rigor %s > %s/bogus.txt 2>&1", dir, FAKES, SCRIPT,
          dir);
  assert_int_equal(rc, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_script_is_shellcheck_clean),
      cmocka_unit_test(test_dry_run_prints_every_command_and_runs_none),
      cmocka_unit_test(test_tables_from_stand_ins),
      cmocka_unit_test(test_a_failed_run_fails_the_script),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
