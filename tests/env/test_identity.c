#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <stdbool.h>

#include "rigor/plugin.h"
#include "digest.h"
#include "identity.h"
#include "fakeroot.h"

static void test_host_identity_from_a_machine_tree(void **state) {
  (void)state;
  char *root = fake_root_new();
  assert_int_equal(
      fake_write(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n"), 0);
  assert_int_equal(
      fake_write(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n"),
      0);
  assert_int_equal(
      fake_write(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "acpi-cpufreq\n"), 0);
  assert_int_equal(fake_write(root, "/sys/devices/system/cpu/cpufreq/boost", "1\n"), 0);
  assert_int_equal(fake_write(root, "/sys/devices/system/cpu/smt/control", "off\n"), 0);
  assert_int_equal(fake_write(root, "/proc/sys/kernel/randomize_va_space", "2\n"), 0);
  setenv("OMP_NUM_THREADS", "3", 1);
  setenv("NCCL_DEBUG", "INFO", 1);
  setenv("CUDA_VISIBLE_DEVICES", "1", 1);
  setenv("KMP_AFFINITY", "compact", 1);
  setenv("UNRELATED_SETTING", "1", 1);

  json_t *id = rigor__identity_host_at(root);
  assert_string_equal(json_string_value(json_object_get(id, "governor")), "mixed");
  json_t *groups = json_object_get(id, "governors");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(groups, "powersave"), 0)), 0);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(groups, "performance"), 0)),
                   1);
  assert_string_equal(json_string_value(json_object_get(id, "cpufreq_driver")), "acpi-cpufreq");
  assert_true(json_is_true(json_object_get(id, "boost")));
  assert_string_equal(json_string_value(json_object_get(id, "smt")), "off");
  assert_int_equal(json_integer_value(json_object_get(id, "aslr")), 2);

  json_t *env = json_object_get(id, "env");
  assert_string_equal(json_string_value(json_object_get(env, "OMP_NUM_THREADS")), "3");
  assert_string_equal(json_string_value(json_object_get(env, "NCCL_DEBUG")), "INFO");
  assert_string_equal(json_string_value(json_object_get(env, "CUDA_VISIBLE_DEVICES")), "1");
  assert_string_equal(json_string_value(json_object_get(env, "KMP_AFFINITY")), "compact");
  assert_null(json_object_get(env, "UNRELATED_SETTING"));

  /* Host facts come from the running machine whatever the tree says. */
  char host[256];
  gethostname(host, sizeof host);
  assert_string_equal(json_string_value(json_object_get(id, "host")), host);
  struct utsname u;
  uname(&u);
  assert_string_equal(json_string_value(json_object_get(json_object_get(id, "kernel"), "release")),
                      u.release);
  assert_true(json_integer_value(json_object_get(id, "sockets")) >= 1);
  assert_true(json_integer_value(json_object_get(id, "cores")) >= 1);
  assert_true(json_integer_value(json_object_get(id, "threads")) >=
              json_integer_value(json_object_get(id, "cores")));
  assert_true(json_array_size(json_object_get(id, "numa")) >= 1);
  json_t *caches = json_object_get(id, "caches");
  size_t i;
  json_t *c;
  json_array_foreach(caches, i, c) {
    assert_true(json_integer_value(json_object_get(c, "level")) >= 1);
    assert_true(json_integer_value(json_object_get(c, "size")) > 0);
  }
  assert_non_null(json_string_value(json_object_get(id, "compiler")));
  assert_non_null(json_string_value(json_object_get(id, "build_type")));
  assert_non_null(json_string_value(json_object_get(id, "rigor_git")));
  assert_non_null(json_string_value(json_object_get(id, "rigor_version")));
  assert_non_null(json_object_get(id, "cflags"));
  assert_true(json_is_object(json_object_get(id, "telemetry_sources")));
  json_decref(id);
  fake_root_free(root);
}

static void test_intel_pstate_and_missing_files(void **state) {
  (void)state;
  char *root = fake_root_new();
  assert_int_equal(fake_write(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n"), 0);
  json_t *id = rigor__identity_host_at(root);
  assert_true(json_is_false(json_object_get(id, "boost")));
  assert_true(json_is_null(json_object_get(id, "governor")));
  assert_true(json_is_null(json_object_get(id, "aslr")));
  json_decref(id);
  fake_root_free(root);
}

static void test_real_machine(void **state) {
  (void)state;
  json_t *id = rigor_identity_host();
  FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
  int aslr = -1;
  if (f) {
    assert_int_equal(fscanf(f, "%d", &aslr), 1);
    fclose(f);
    assert_int_equal(json_integer_value(json_object_get(id, "aslr")), aslr);
  }
  /* hwloc's topology holds the CPUs this process may use. */
  cpu_set_t mask;
  sched_getaffinity(0, sizeof mask, &mask);
  assert_int_equal(json_integer_value(json_object_get(id, "threads")), CPU_COUNT(&mask));
  assert_non_null(json_string_value(json_object_get(id, "cpus")));
  json_decref(id);
}

/* The identity's topology is made without hwloc's I/O plugins, yet reads the same CPUs, caches
 * and nodes, and leaves the environment as it found it: unset stays unset, a user's value stays. */
static void test_topology_without_io_plugins_leaves_the_environment(void **state) {
  (void)state;
  unsetenv("HWLOC_PLUGINS_BLACKLIST");
  json_t *without = rigor_identity_host();
  assert_null(getenv("HWLOC_PLUGINS_BLACKLIST"));
  setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_gl", 1);
  json_t *user = rigor_identity_host();
  assert_string_equal(getenv("HWLOC_PLUGINS_BLACKLIST"), "hwloc_gl");
  unsetenv("HWLOC_PLUGINS_BLACKLIST");
  const char *keys[] = {"cpu_model", "cores", "threads", "cpus", "caches", "numa"};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    assert_non_null(json_object_get(without, keys[k]));
    assert_true(json_equal(json_object_get(without, keys[k]), json_object_get(user, keys[k])));
  }
  assert_true(json_array_size(json_object_get(without, "caches")) > 0);
  json_decref(without);
  json_decref(user);
}

static void test_file_sha256(void **state) {
  (void)state;
  char *root = fake_root_new();
  char out[65];
  char path[4096];
  assert_int_equal(fake_write(root, "/abc", "abc"), 0);
  snprintf(path, sizeof path, "%s/abc", root);
  assert_int_equal(rigor_file_sha256(path, out), 0);
  assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert_int_equal(fake_write(root, "/empty", ""), 0);
  snprintf(path, sizeof path, "%s/empty", root);
  assert_int_equal(rigor_file_sha256(path, out), 0);
  assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  snprintf(path, sizeof path, "%s/missing", root);
  assert_int_equal(rigor_file_sha256(path, out), RIGOR_ENOENT);
  fake_root_free(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host_identity_from_a_machine_tree),
      cmocka_unit_test(test_intel_pstate_and_missing_files),
      cmocka_unit_test(test_real_machine),
      cmocka_unit_test(test_topology_without_io_plugins_leaves_the_environment),
      cmocka_unit_test(test_file_sha256),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
