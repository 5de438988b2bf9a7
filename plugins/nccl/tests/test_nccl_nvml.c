#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nccl_nvml.h"

static void test_missing_library_gives_no_values(void **state) {
  (void)state;
  const char *ids[] = {"0000:3b:00.0"};
  nccl_nvml_t *nv = nccl_nvml_open("libnvidia-ml-absent.so.1", ids, 1);
  assert_null(nv);
  rigor_telemetry_value_t out[8];
  assert_int_equal(nccl_nvml_sample(nv, out, 8), 0);
  nccl_nvml_close(nv);
}

static void test_samples_each_found_device(void **state) {
  (void)state;
  const char *ids[] = {"0000:01:00.0", "0000:3b:00.0"};
  nccl_nvml_t *nv = nccl_nvml_open(FAKE_NVML_PATH, ids, 2);
  assert_non_null(nv);
  rigor_telemetry_value_t out[16];
  int n = nccl_nvml_sample(nv, out, 16);
  /* the first bus id is unknown: only local GPU 1 reports */
  assert_int_equal(n, 5);
  assert_string_equal(out[0].name, "gpu1.sm_clock_mhz");
  assert_float_equal(out[0].value, 1530, 0);
  assert_string_equal(out[1].name, "gpu1.mem_clock_mhz");
  assert_float_equal(out[1].value, 877, 0);
  assert_string_equal(out[2].name, "gpu1.temperature_c");
  assert_float_equal(out[2].value, 46, 0);
  assert_string_equal(out[3].name, "gpu1.power_w");
  assert_float_equal(out[3].value, 136.25, 1e-12);
  assert_string_equal(out[4].name, "gpu1.pstate");
  assert_float_equal(out[4].value, 0, 0);
  /* a short buffer is filled, never overrun */
  assert_int_equal(nccl_nvml_sample(nv, out, 2), 2);
  nccl_nvml_close(nv);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_missing_library_gives_no_values),
      cmocka_unit_test(test_samples_each_found_device),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
