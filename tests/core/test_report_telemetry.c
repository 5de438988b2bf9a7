/* The report's telemetry table and the low-clock flag, from a results file written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

/* Three runs of one variant; the first ran at 135 MHz for a while, as the nccl-tests methodology
 * study's first run. */
static const char *const results =
    "{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"t\",\"name\":\"t\","
    "\"hash\":\"h\",\"config\":{},\"variants\":[{\"index\":0,\"label\":\"v\",\"axes\":{},"
    "\"settings\":{}}],\"schedule\":{\"design\":\"sequential\",\"blocks\":[[0],[0],[0]]}}\n"
    "%s"
    "{\"schema\":\"rigor.result/1\",\"type\":\"run\",\"experiment\":\"t\",\"run\":%d,"
    "\"attempt\":1,\"block\":%d,\"position\":0,\"variant\":0,\"label\":\"v\",\"status\":\"ok\","
    "\"telemetry\":{\"gpu0.sm_clock_mhz\":{\"min\":%g,\"median\":1530,\"max\":1530,\"n\":9},"
    "\"load1\":{\"min\":0.5,\"median\":0.7,\"max\":%g,\"n\":9}},\"flags\":[]}\n";

static void test_low_clock_and_telemetry_table(void **st) {
  (void)st;
  char *dir = tmpdir_make();
  char *path = path_join(dir, "t.jsonl");
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  for (int run = 0; run < 3; run++) {
    char samples[4096] = "";
    for (int c = 0; c < 5; c++) {
      size_t used = strlen(samples);
      snprintf(samples + used, sizeof samples - used,
               "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"t\","
               "\"run\":%d,\"attempt\":1,\"variant\":0,\"cycle\":%d,\"point\":0,"
               "\"point_label\":\"\",\"status\":\"ok\",\"time_s\":%g,\"wall_s\":%g,"
               "\"iters\":1,\"agg\":1,\"bytes\":0}\n",
               run, c, 1e-3 * (1 + 0.001 * c), 1e-3 * (1 + 0.001 * c));
    }
    if (run == 0) {
      fprintf(f, results, samples, run, run, 135.0, 0.9);
    } else {
      const char *tail = strstr(results, "%s") + 2;
      fputs(samples, f);
      fprintf(f, tail, run, run, 1530.0, 0.8);
    }
  }
  fclose(f);
  const char *args[] = {"report", path, NULL};
  cmd_result_t r = rigor_exec(dir, args);
  assert_int_equal(r.exit_code, 0);
  const char *table = strstr(r.out, "telemetry per variant");
  assert_non_null(table);
  assert_non_null(strstr(table, "gpu0.sm_clock_mhz"));
  assert_non_null(strstr(table, "135"));
  assert_non_null(strstr(table, "low_clock x1"));
  assert_non_null(strstr(table, "load1"));
  cmd_result_free(&r);
  free(path);
  tmpdir_remove(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_low_clock_and_telemetry_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
