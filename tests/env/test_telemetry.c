#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <stdbool.h>

#include "rigor/plugin.h"
#include "clock_flags.h"
#include "telemetry.h"
#include "fakeroot.h"

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static double stat_of(const json_t *summary, const char *signal, const char *stat) {
  const json_t *v = json_object_get(json_object_get(summary, signal), stat);
  if (!v) fail_msg("summary lacks %s.%s", signal, stat);
  return json_number_value(v);
}

typedef struct gpu_fake {
  int calls;
} gpu_fake_t;

static int gpu_hook(void *arg, rigor_telemetry_value_t *out, int cap) {
  gpu_fake_t *g = arg;
  assert_true(cap >= 2);
  g->calls++;
  snprintf(out[0].name, sizeof out[0].name, "gpu0_sm_mhz");
  out[0].value = 1530;
  snprintf(out[1].name, sizeof out[1].name, "gpu0_power_w");
  out[1].value = 100 + g->calls;
  return 2;
}

static char *machine_root(void) {
  char *root = fake_root_new();
  assert_non_null(root);
  assert_int_equal(
      fake_write(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1500000\n"), 0);
  assert_int_equal(
      fake_write(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "2000000\n"), 0);
  assert_int_equal(
      fake_write(root, "/sys/devices/system/cpu/cpu2/cpufreq/scaling_cur_freq", "900000\n"), 0);
  assert_int_equal(fake_write(root, "/sys/class/thermal/thermal_zone0/type", "x86_pkg_temp\n"), 0);
  assert_int_equal(fake_write(root, "/sys/class/thermal/thermal_zone0/temp", "45000\n"), 0);
  assert_int_equal(fake_write(root, "/sys/class/hwmon/hwmon0/name", "k10temp\n"), 0);
  assert_int_equal(fake_write(root, "/sys/class/hwmon/hwmon0/temp1_input", "50000\n"), 0);
  assert_int_equal(fake_write(root, "/sys/class/hwmon/hwmon0/temp1_label", "Tctl\n"), 0);
  assert_int_equal(fake_write(root, "/proc/loadavg", "0.50 0.40 0.30 1/100 123\n"), 0);
  return root;
}

static void test_samples_bound_cpus_temperatures_load_and_hook(void **state) {
  (void)state;
  char *root = machine_root();
  int cpus[] = {0, 1};
  gpu_fake_t gpu = {0};
  rigor_telemetry_t *t = NULL;
  assert_int_equal(rigor__telemetry_start_at(root, 0.01, true, cpus, 2, gpu_hook, &gpu, &t), 0);
  sleep_ms(60);
  /* The clock drops mid-run: the summary must show it as the minimum. */
  assert_int_equal(
      fake_write(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "1000000\n"), 0);
  sleep_ms(60);
  json_t *raw = NULL;
  json_t *summary = rigor_telemetry_stop(t, &raw);

  assert_true(stat_of(summary, "cpu0_mhz", "n") >= 3);
  assert_true(fabs(stat_of(summary, "cpu0_mhz", "min") - 1000) < 1e-9);
  assert_true(fabs(stat_of(summary, "cpu0_mhz", "max") - 1500) < 1e-9);
  assert_true(fabs(stat_of(summary, "cpu1_mhz", "median") - 2000) < 1e-9);
  assert_null(json_object_get(summary, "cpu2_mhz")); /* not bound, not sampled */
  assert_true(fabs(stat_of(summary, "temp_x86_pkg_temp_c", "max") - 45) < 1e-9);
  assert_true(fabs(stat_of(summary, "temp_k10temp_Tctl_c", "max") - 50) < 1e-9);
  assert_true(fabs(stat_of(summary, "load1", "median") - 0.5) < 1e-9);
  assert_true(fabs(stat_of(summary, "gpu0_sm_mhz", "min") - 1530) < 1e-9);
  assert_true(fabs(stat_of(summary, "gpu0_power_w", "min") - 101) < 1e-9);
  assert_true(fabs(stat_of(summary, "gpu0_power_w", "max") - (100 + gpu.calls)) < 1e-9);
  assert_int_equal((int)stat_of(summary, "gpu0_sm_mhz", "n"), gpu.calls);

  assert_true(json_is_array(raw));
  assert_int_equal(json_array_size(raw), (size_t)stat_of(summary, "load1", "n"));
  double last_t = -1;
  size_t i;
  json_t *row;
  json_array_foreach(raw, i, row) {
    double when = json_number_value(json_object_get(row, "t"));
    assert_true(when > last_t);
    last_t = when;
    assert_non_null(json_object_get(row, "cpu0_mhz"));
    assert_non_null(json_object_get(row, "gpu0_sm_mhz"));
  }
  assert_true(fabs(json_number_value(json_object_get(json_array_get(raw, 0), "cpu0_mhz")) - 1500) <
              1e-9);
  json_decref(raw);
  json_decref(summary);
  fake_root_free(root);
}

static void test_cpuinfo_fallback(void **state) {
  (void)state;
  char *root = fake_root_new();
  assert_int_equal(fake_write(root, "/proc/cpuinfo",
                              "processor\t: 0\ncpu MHz\t\t: 2596.125\n\n"
                              "processor\t: 1\ncpu MHz\t\t: 1200.000\n\n"),
                   0);
  int cpus[] = {1};
  rigor_telemetry_t *t = NULL;
  assert_int_equal(rigor__telemetry_start_at(root, 0.1, false, cpus, 1, NULL, NULL, &t), 0);
  json_t *raw = json_true();
  json_t *summary = rigor_telemetry_stop(t, &raw);
  assert_null(raw);
  assert_true(fabs(stat_of(summary, "cpu1_mhz", "min") - 1200) < 1e-9);
  assert_null(json_object_get(summary, "cpu0_mhz"));
  assert_null(json_object_get(summary, "load1"));
  json_decref(summary);
  fake_root_free(root);
}

static void test_nothing_exposed_is_not_an_error(void **state) {
  (void)state;
  char *root = fake_root_new();
  int cpus[] = {0};
  rigor_telemetry_t *t = NULL;
  assert_int_equal(rigor__telemetry_start_at(root, 0.1, false, cpus, 1, NULL, NULL, &t), 0);
  json_t *summary = rigor_telemetry_stop(t, NULL);
  assert_true(json_is_object(summary));
  assert_int_equal(json_object_size(summary), 0);
  json_decref(summary);
  fake_root_free(root);
}

static void test_real_machine_and_prompt_stop(void **state) {
  (void)state;
  int cpus[] = {0};
  rigor_telemetry_t *t = NULL;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  assert_int_equal(rigor_telemetry_start(10.0, false, cpus, 1, NULL, NULL, &t), 0);
  json_t *summary = rigor_telemetry_stop(t, NULL);
  clock_gettime(CLOCK_MONOTONIC, &b);
  assert_true((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec) < 2.0);
  /* A start and a closing sample even when the run is shorter than one interval. */
  assert_int_equal((int)stat_of(summary, "load1", "n"), 2);
  json_t *sources = rigor_telemetry_sources();
  if (strcmp(json_string_value(json_object_get(sources, "cpu_freq")), "unavailable") != 0)
    assert_true(stat_of(summary, "cpu0_mhz", "min") > 0);
  else
    assert_null(json_object_get(summary, "cpu0_mhz"));
  assert_non_null(json_string_value(json_object_get(sources, "temperature")));
  assert_string_equal(json_string_value(json_object_get(sources, "load")), "loadavg");
  json_decref(sources);
  json_decref(summary);
}

/* The sampler refuses an interval the settings could not hold (catalog/environment_settings.c
 * reads them). */
static void test_interval_out_of_range(void **state) {
  (void)state;
  rigor_telemetry_t *t = NULL;
  assert_int_equal(rigor_telemetry_start(0, false, NULL, 0, NULL, NULL, &t), RIGOR_EINVAL);
  assert_null(t);
  assert_int_equal(rigor_telemetry_start(7200, false, NULL, 0, NULL, NULL, &t), RIGOR_EINVAL);
  assert_null(t);
}

static json_t *run_summary(double cpu_min, double cpu_med, double gpu_min, double gpu_med) {
  return json_pack("{s:{s:f, s:f, s:f, s:i}, s:{s:f, s:f, s:f, s:i}, s:{s:f, s:f, s:f, s:i}}",
                   "cpu0_mhz", "min", cpu_min, "median", cpu_med, "max", cpu_med, "n", 10,
                   "gpu0_sm_mhz", "min", gpu_min, "median", gpu_med, "max", gpu_med, "n", 10,
                   "load1", "min", 0.0, "median", 5.0, "max", 9.0, "n", 10);
}

static void test_low_clock_flag(void **state) {
  (void)state;
  /* The nccl-tests methodology study's first run: the SM clock at 135 MHz against 1530 MHz in the
   * others. */
  json_t *runs = json_array();
  json_array_append_new(runs, run_summary(2900, 3000, 135, 1530));
  json_array_append_new(runs, run_summary(2950, 3000, 1500, 1530));
  json_array_append_new(runs, run_summary(2000, 2900, 1530, 1530));
  json_array_append_new(runs, json_null());
  json_array_append_new(runs, run_summary(2990, 3000, 1300, 1530));
  bool flagged[5];
  json_t *findings = NULL;
  assert_int_equal(rigor_telemetry_flag_low_clock(runs, 0.8, flagged, &findings), 2);
  assert_true(flagged[0]);
  assert_false(flagged[1]);
  assert_true(flagged[2]); /* 2000 < 0.8 x 3000 */
  assert_false(flagged[3]);
  assert_false(flagged[4]); /* 1300 >= 0.8 x 1530 */
  assert_int_equal(json_array_size(findings), 2);
  size_t i;
  json_t *f;
  bool saw_gpu = false, saw_cpu = false;
  json_array_foreach(findings, i, f) {
    const char *signal = json_string_value(json_object_get(f, "signal"));
    double reference = json_number_value(json_object_get(f, "reference"));
    if (strcmp(signal, "gpu0_sm_mhz") == 0) {
      saw_gpu = true;
      assert_int_equal(json_integer_value(json_object_get(f, "run")), 0);
      assert_true(fabs(json_number_value(json_object_get(f, "min")) - 135) < 1e-9);
      assert_true(fabs(reference - 1530) < 1e-9);
    } else {
      saw_cpu = true;
      assert_string_equal(signal, "cpu0_mhz");
      assert_int_equal(json_integer_value(json_object_get(f, "run")), 2);
      assert_true(fabs(reference - 3000) < 1e-9);
    }
  }
  assert_true(saw_gpu && saw_cpu);
  json_decref(findings);

  /* A stricter threshold flags more; the load signal is never a clock. */
  assert_int_equal(rigor_telemetry_flag_low_clock(runs, 0.9, flagged, NULL), 3);
  assert_true(flagged[4]);
  assert_int_equal(rigor_telemetry_flag_low_clock(runs, 0, flagged, NULL), RIGOR_EINVAL);
  json_decref(runs);

  json_t *empty = json_array();
  assert_int_equal(rigor_telemetry_flag_low_clock(empty, 0.8, NULL, NULL), 0);
  json_decref(empty);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_samples_bound_cpus_temperatures_load_and_hook),
      cmocka_unit_test(test_cpuinfo_fallback),
      cmocka_unit_test(test_nothing_exposed_is_not_an_error),
      cmocka_unit_test(test_real_machine_and_prompt_stop),
      cmocka_unit_test(test_interval_out_of_range),
      cmocka_unit_test(test_low_clock_flag),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
