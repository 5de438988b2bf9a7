#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "pto_vf_addrs.h"

static int parse(const char *text, vf_addrs_t *a, char *err, size_t errlen) {
  return vf_addrs_parse(text, strlen(text), "device_addrs.toml", a, err, errlen);
}

static void test_valid_file(void **state) {
  (void)state;
  vf_addrs_t a;
  char err[256];
  const char *text = "# buffers\n[src]\naddr = \"0x1000\"\nsize_bytes = 4096 # 4 KiB\n\n"
                     "[dst]\r\naddr=\"0x9000\"\r\nsize_bytes=256\r\n[overlap]\naddr = \"0x1000\"\n"
                     "size_bytes = 8192\n";
  assert_int_equal(parse(text, &a, err, sizeof err), 0);
  assert_int_equal(a.n, 3);
  assert_string_equal(a.buffers[0].name, "src");
  assert_int_equal(a.buffers[1].base, 0x9000);
  assert_int_equal(a.buffers[1].size, 256);
  assert_string_equal(vf_addrs_lookup(&a, 0x1000), "src");
  assert_string_equal(vf_addrs_lookup(&a, 0x1fff), "src");
  /* First buffer wins; past src's end falls through to the later overlap. */
  assert_string_equal(vf_addrs_lookup(&a, 0x2000), "overlap");
  assert_string_equal(vf_addrs_lookup(&a, 0x90ff), "dst");
  assert_null(vf_addrs_lookup(&a, 0x9100));
  vf_addrs_free(&a);
}

static void expect_error(const char *text, const char *message) {
  vf_addrs_t a;
  char err[256];
  assert_int_equal(parse(text, &a, err, sizeof err), -EINVAL);
  assert_string_equal(err, message);
}

static void test_errors_name_the_line(void **state) {
  (void)state;
  expect_error("[a]\naddr = 0x10\nsize_bytes = 1\n",
               "device_addrs.toml:2: addr must be a string holding a hex address, like \"0x1000\"");
  expect_error("[a]\naddr = \"0x10\"\nsize_bytes = -1\n",
               "device_addrs.toml:3: size_bytes must be a decimal integer");
  expect_error("[a]\naddr = \"0x10\"\n\n[b]\n",
               "device_addrs.toml:1: table [a] needs both addr and size_bytes");
  expect_error("addr = \"0x10\"\n", "device_addrs.toml:1: key outside a [buffer] table");
  expect_error("[a]\nalign = 4\n",
               "device_addrs.toml:2: unknown key (expected addr or size_bytes)");
  expect_error("[a]\naddr = \"0x10\"\nsize_bytes = 1\n[a]\n",
               "device_addrs.toml:4: duplicate table a");
  expect_error("[a b]\n", "device_addrs.toml:1: expected [name] with a bare name (letters, digits, "
                          "'_', '-')");
  expect_error("[a]\nsize_bytes = 1 x\n", "device_addrs.toml:2: unexpected text after value");
  expect_error("[a]\nsize_bytes 1\n", "device_addrs.toml:2: expected '=' after key");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_file),
      cmocka_unit_test(test_errors_name_the_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
