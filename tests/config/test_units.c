#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "units.h"

static void test_sizes_are_binary(void **state) {
  (void)state;
  char err[256];
  uint64_t v = 0;
  struct {
    const char *text;
    uint64_t bytes;
  } ok[] = {{"512", 512},
            {"0", 0},
            {"4KiB", 4096},
            {"64M", UINT64_C(64) << 20},
            {"64MiB", UINT64_C(64) << 20},
            {"1M", 1048576},
            {"1G", UINT64_C(1) << 30},
            {"1g", UINT64_C(1) << 30},
            {"2TB", UINT64_C(2) << 40},
            {"1.5KiB", 1536},
            {"0.5M", 524288},
            {"15EiB", UINT64_C(15) << 60},
            {"18446744073709551615", UINT64_MAX},
            {"100B", 100}};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    assert_int_equal(rigor_parse_size(ok[i].text, &v, err, sizeof err), 0);
    assert_true(v == ok[i].bytes);
  }
}

static void expect_error(int rc, const char *err, const char *message) {
  assert_int_not_equal(rc, 0);
  assert_string_equal(err, message);
}

static void test_size_errors(void **state) {
  (void)state;
  char err[256];
  uint64_t v = 0;
  expect_error(rigor_parse_size("16EiB", &v, err, sizeof err), err,
               "size '16EiB' overflows 64 bits");
  expect_error(rigor_parse_size("18446744073709551616", &v, err, sizeof err), err,
               "size '18446744073709551616' overflows 64 bits");
  expect_error(rigor_parse_size("99999999999999999999999999K", &v, err, sizeof err), err,
               "size '99999999999999999999999999K' overflows 64 bits");
  expect_error(rigor_parse_size("-1M", &v, err, sizeof err), err, "size '-1M' is negative");
  expect_error(rigor_parse_size("1.3B", &v, err, sizeof err), err,
               "size '1.3B' is not a whole number of bytes");
  expect_error(rigor_parse_size("12XB", &v, err, sizeof err), err,
               "invalid size '12XB' (expected bytes with an optional binary suffix: 512, 4KiB, "
               "64M, 1G)");
  assert_int_not_equal(rigor_parse_size("", &v, err, sizeof err), 0);
  assert_int_not_equal(rigor_parse_size("MiB", &v, err, sizeof err), 0);
  assert_int_not_equal(rigor_parse_size("1MiBx", &v, err, sizeof err), 0);
  assert_int_not_equal(rigor_parse_size("0x10", &v, err, sizeof err), 0);
  assert_int_not_equal(rigor_parse_size("1e3", &v, err, sizeof err), 0);
}

static void test_format_size(void **state) {
  (void)state;
  struct {
    uint64_t bytes;
    const char *text;
  } cases[] = {{0, "0"},
               {1000, "1000"},
               {1024, "1KiB"},
               {1536, "1536"},
               {1048576, "1MiB"},
               {UINT64_C(64) << 30, "64GiB"},
               {UINT64_C(1) << 63, "8EiB"},
               {UINT64_MAX, "18446744073709551615"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *s = rigor_format_size(cases[i].bytes);
    assert_string_equal(s, cases[i].text);
    free(s);
  }
}

static void test_durations(void **state) {
  (void)state;
  char err[256];
  double v = 0;
  struct {
    const char *text;
    double seconds;
  } ok[] = {{"30s", 30},       {"500ms", 0.5},    {"5m", 300},  {"1h", 3600},
            {"250us", 250e-6}, {"100ns", 100e-9}, {"2.5", 2.5}, {"2min", 120}};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    assert_int_equal(rigor_parse_duration(ok[i].text, &v, err, sizeof err), 0);
    assert_true(v > ok[i].seconds * (1 - 1e-12) && v < ok[i].seconds * (1 + 1e-12));
  }
  expect_error(rigor_parse_duration("-1s", &v, err, sizeof err), err, "duration '-1s' is negative");
  expect_error(rigor_parse_duration("10 parsecs", &v, err, sizeof err), err,
               "invalid duration '10 parsecs' (expected e.g. 30s, 500ms, 5m, 1h, 250us)");
  expect_error(rigor_parse_duration("99999999999h", &v, err, sizeof err), err,
               "duration '99999999999h' is too long");
  assert_int_not_equal(rigor_parse_duration("inf", &v, err, sizeof err), 0);
  assert_int_not_equal(rigor_parse_duration("nan", &v, err, sizeof err), 0);
}

static void test_percents(void **state) {
  (void)state;
  char err[256];
  double v = 0;
  assert_int_equal(rigor_parse_percent("5%", &v, err, sizeof err), 0);
  assert_true(v > 0.0499999 && v < 0.0500001);
  assert_int_equal(rigor_parse_percent("0.05", &v, err, sizeof err), 0);
  assert_true(v > 0.0499999 && v < 0.0500001);
  assert_int_equal(rigor_parse_percent("150%", &v, err, sizeof err), 0);
  assert_true(v > 1.4999 && v < 1.5001);
  expect_error(rigor_parse_percent("-5%", &v, err, sizeof err), err,
               "percentage '-5%' is negative");
  expect_error(rigor_parse_percent("five", &v, err, sizeof err), err,
               "invalid percentage 'five' (expected e.g. 5% or 0.05)");
  assert_int_not_equal(rigor_parse_percent("5%%", &v, err, sizeof err), 0);
  expect_error(rigor_parse_percent("5", &v, err, sizeof err), err,
               "'5' is ambiguous: write 5% or 0.05 (a bare number is a fraction)");
  assert_int_equal(rigor_parse_percent("1", &v, err, sizeof err), 0);
}

static void test_integers(void **state) {
  (void)state;
  char err[256];
  int64_t i = 0;
  uint64_t u = 0;
  assert_int_equal(rigor_parse_int("-42", &i, err, sizeof err), 0);
  assert_int_equal(i, -42);
  assert_int_equal(rigor_parse_int("9223372036854775807", &i, err, sizeof err), 0);
  assert_true(i == INT64_MAX);
  expect_error(rigor_parse_int("9223372036854775808", &i, err, sizeof err), err,
               "integer '9223372036854775808' is out of the 64-bit range");
  expect_error(rigor_parse_int("4.5", &i, err, sizeof err), err, "'4.5' is not an integer");
  expect_error(rigor_parse_int("12abc", &i, err, sizeof err), err, "'12abc' is not an integer");
  assert_int_equal(rigor_parse_uint("18446744073709551615", &u, err, sizeof err), 0);
  assert_true(u == UINT64_MAX);
  expect_error(rigor_parse_uint("-1", &u, err, sizeof err), err,
               "'-1' is negative; expected a non-negative integer");
  expect_error(rigor_parse_uint("18446744073709551616", &u, err, sizeof err), err,
               "integer '18446744073709551616' is out of the 64-bit range");
  assert_int_not_equal(rigor_parse_uint("", &u, err, sizeof err), 0);
  assert_int_not_equal(rigor_parse_uint(" 1", &u, err, sizeof err), 0);
}

static void test_doubles_and_bools(void **state) {
  (void)state;
  char err[256];
  double d = 0;
  int b = -1;
  assert_int_equal(rigor_parse_double("1.5e3", &d, err, sizeof err), 0);
  assert_true(d == 1500.0);
  assert_int_equal(rigor_parse_double("-0.25", &d, err, sizeof err), 0);
  assert_true(d == -0.25);
  expect_error(rigor_parse_double("1e999", &d, err, sizeof err), err,
               "number '1e999' is out of range");
  expect_error(rigor_parse_double("inf", &d, err, sizeof err), err, "'inf' is not a number");
  expect_error(rigor_parse_double("nan", &d, err, sizeof err), err, "'nan' is not a number");
  assert_int_equal(rigor_parse_bool("yes", &b, err, sizeof err), 0);
  assert_int_equal(b, 1);
  assert_int_equal(rigor_parse_bool("False", &b, err, sizeof err), 0);
  assert_int_equal(b, 0);
  expect_error(rigor_parse_bool("maybe", &b, err, sizeof err), err,
               "'maybe' is not a boolean (true or false)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sizes_are_binary),  cmocka_unit_test(test_size_errors),
      cmocka_unit_test(test_format_size),       cmocka_unit_test(test_durations),
      cmocka_unit_test(test_percents),          cmocka_unit_test(test_integers),
      cmocka_unit_test(test_doubles_and_bools),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
