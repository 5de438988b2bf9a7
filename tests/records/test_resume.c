/* The resume scan: what it finds in a real file, and that it stops when asked (SIGTERM while a
 * large file is read for --resume must not wait for the whole parse). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "resume.h"
#include "rigor/plugin.h"

static char path[256];

static int setup(void **st) {
  (void)st;
  snprintf(path, sizeof path, "%s/tests/resume-scan-%d.jsonl", RIGOR_BINARY_DIR, (int)getpid());
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs("{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"e\","
        "\"hash\":\"h1\",\"config\":{}}\n",
        f);
  for (int i = 0; i < 20000; i++)
    fprintf(f,
            "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"e\",\"run\":%d,"
            "\"attempt\":1,\"variant\":0,\"cycle\":%d,\"point\":0,\"status\":\"ok\","
            "\"time_s\":1e-6}\n",
            i / 1000, i % 1000);
  fputs("{\"schema\":\"rigor.result/1\",\"type\":\"run\",\"experiment\":\"e\",\"run\":0,"
        "\"attempt\":1,\"variant\":0,\"status\":\"ok\"}\n",
        f);
  fclose(f);
  return 0;
}

static int teardown(void **st) {
  (void)st;
  unlink(path);
  return 0;
}

static int calls;
static int stop_after_100(void) {
  return ++calls > 100;
}

static void test_scan_finds_runs_and_attempts(void **st) {
  (void)st;
  rigor_resume_t rs;
  char err[512] = "";
  json_t *config = json_object();
  assert_int_equal(rigor_resume_scan(path, "e", "h1", config, 40, NULL, &rs, err, sizeof err), 0);
  assert_true(rs.have_experiment);
  assert_int_equal(rs.done[0], 1);
  assert_int_equal(rs.done[1], 0);
  assert_int_equal(rs.attempt[19], 1);
  rigor_resume_free(&rs);
  json_decref(config);
}

static void test_scan_stops_when_asked(void **st) {
  (void)st;
  rigor_resume_t rs;
  char err[512] = "";
  json_t *config = json_object();
  calls = 0;
  int rc = rigor_resume_scan(path, "e", "h1", config, 40, stop_after_100, &rs, err, sizeof err);
  assert_int_equal(rc, RIGOR_ECANCELED);
  assert_int_equal(calls, 101); /* it stopped at once, not at the end of the file */
  assert_non_null(strstr(err, "stopped while reading it for --resume"));
  rigor_resume_free(&rs);
  json_decref(config);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scan_finds_runs_and_attempts),
      cmocka_unit_test(test_scan_stops_when_asked),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
