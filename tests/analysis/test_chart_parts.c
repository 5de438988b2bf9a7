/* The small rules the charts and closing lines share: labels from the parts that exist, the
 * count of what was and was not judged, and tick labels thinned so that none touch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "chart.h"
#include "labels.h"
#include "tally.h"

static void test_label_from_present_parts(void **state) {
  (void)state;
  char buf[128];
  const char *all[] = {"sort1", "default", "n=10"};
  rigor_label_join(buf, sizeof buf, " / ", all, 3);
  assert_string_equal(buf, "sort1 / default / n=10");
  /* An empty point, a "-" and a NULL are no parts: no trailing separator, no leading one. */
  const char *no_point[] = {"sort1", "default", ""};
  rigor_label_join(buf, sizeof buf, " / ", no_point, 3);
  assert_string_equal(buf, "sort1 / default");
  const char *no_cell[] = {NULL, "-", "cand vs base"};
  rigor_label_join(buf, sizeof buf, ": ", no_cell, 3);
  assert_string_equal(buf, "cand vs base");
  const char *none[] = {NULL, ""};
  assert_int_equal(rigor_label_join(buf, sizeof buf, ", ", none, 2), 0);
  assert_string_equal(buf, "");
  /* A short buffer is cut, never overrun. */
  char small[8];
  rigor_label_join(small, sizeof small, " / ", all, 3);
  assert_int_equal(strlen(small), sizeof small - 1);
}

static void test_tally_counts_judged_and_not(void **state) {
  (void)state;
  char buf[256];
  rigor_tally_t t = {{0}};
  t.count[RIGOR_CMP_SLOWER] = 1;
  t.count[RIGOR_CMP_SAME] = 1;
  t.count[RIGOR_CMP_INCONCLUSIVE] = 1;
  t.count[RIGOR_CMP_MISSING] = 1;
  t.count[RIGOR_CMP_INVALID] = 1;
  rigor_tally_line(&t, "row", buf, sizeof buf);
  assert_string_equal(buf, "3 rows: 1 slower, 1 same, 1 inconclusive; 2 could not be judged: 1 "
                           "invalid, 1 missing");
  rigor_tally_t one = {{0}};
  one.count[RIGOR_CMP_FASTER] = 1;
  rigor_tally_line(&one, "contrast", buf, sizeof buf);
  assert_string_equal(buf, "1 contrast: 1 faster");
  rigor_tally_t unjudged = {{0}};
  unjudged.count[RIGOR_CMP_UNDETERMINED] = 2;
  rigor_tally_line(&unjudged, "row", buf, sizeof buf);
  assert_string_equal(buf, "0 rows judged; 2 could not be judged: 2 undetermined");
}

static void test_labels_thinned_to_fit(void **state) {
  (void)state;
  /* 40 labels 50 units wide, 20 apart: every third one (58 units between them). */
  assert_int_equal(rigor_chart_label_every(40, 20, 50), 3);
  assert_int_equal(rigor_chart_label_every(5, 200, 50), 1);
  assert_int_equal(rigor_chart_label_every(1, 0, 50), 1);
  /* Characters, not bytes: "µs" is two. */
  assert_true(rigor_chart_text_width("µs") == rigor_chart_text_width("us"));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_label_from_present_parts),
                                     cmocka_unit_test(test_tally_counts_judged_and_not),
                                     cmocka_unit_test(test_labels_thinned_to_fit)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
