/* Finding plugins by name: search path, refusals and clashes, with real dlopen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "loader.h"
#include "support.h"

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  assert_non_null(in);
  assert_non_null(out);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    assert_int_equal(fwrite(buf, 1, n, out), n);
  fclose(in);
  fclose(out);
}

static void test_loads_by_name(void **st) {
  (void)st;
  const char *dirs[] = {RIGOR_TEST_PLUGIN_DIR, NULL};
  rigor_plugin_search_t search = {dirs, false, false};
  rigor_loaded_t *p = NULL;
  char err[1024];
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), 0);
  assert_string_equal(p->desc.name, "null");
  assert_int_equal(p->desc.abi_major, RIGOR_ABI_MAJOR);
  assert_non_null(p->desc.init);
  assert_null(p->desc.complete);
  assert_non_null(strstr(p->path, "null.so"));
  rigor_plugin_unload(p);
}

static void test_refuses_paths_as_names(void **st) {
  (void)st;
  rigor_loaded_t *p = NULL;
  char err[1024];
  assert_int_equal(rigor_plugin_load("../null", NULL, &p, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "never given by path"));
  assert_int_equal(rigor_plugin_load("/tmp/x", NULL, &p, err, sizeof err), RIGOR_EINVAL);
  assert_null(p);
}

static void test_missing_names_the_folders(void **st) {
  (void)st;
  const char *dirs[] = {RIGOR_TEST_PLUGIN_DIR, NULL};
  rigor_plugin_search_t search = {dirs, false, false};
  rigor_loaded_t *p = NULL;
  char err[4096];
  assert_int_equal(rigor_plugin_load("nosuch", &search, &p, err, sizeof err), RIGOR_ENOENT);
  assert_non_null(strstr(err, "no plugin named 'nosuch'"));
  assert_non_null(strstr(err, "tests/plugins"));
}

static void test_clash_and_unsafe_folder(void **st) {
  (void)st;
  char *a = tmpdir_make(), *b = tmpdir_make();
  char *pa = path_join(a, "null.so"), *pb = path_join(b, "null.so");
  copy_file(RIGOR_TEST_PLUGIN_DIR "/null.so", pa);
  copy_file(RIGOR_TEST_PLUGIN_DIR "/null.so", pb);
  const char *dirs[] = {a, b, NULL};
  rigor_plugin_search_t search = {dirs, false, false};
  rigor_loaded_t *p = NULL;
  char err[4096];
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "provided twice"));
  assert_non_null(strstr(err, a));
  assert_non_null(strstr(err, b));

  const char *one[] = {b, NULL};
  search.extra_dirs = one;
  chmod(b, 0777);
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "world-writable"));
  search.allow_unsafe = true;
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), 0);
  rigor_plugin_unload(p);
  free(pa);
  free(pb);
  tmpdir_remove(a);
  tmpdir_remove(b);
}

static void test_rejects_non_plugin_file(void **st) {
  (void)st;
  char *d = tmpdir_make();
  char *junk = path_join(d, "junk.so");
  write_file(junk, "this is not an ELF file\n");
  const char *dirs[] = {d, NULL};
  rigor_plugin_search_t search = {dirs, false, false};
  rigor_loaded_t *p = NULL;
  char err[4096];
  assert_int_equal(rigor_plugin_load("junk", &search, &p, err, sizeof err), RIGOR_EIO);
  assert_non_null(strstr(err, "junk.so: cannot load"));
  free(junk);
  tmpdir_remove(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_loads_by_name),
      cmocka_unit_test(test_refuses_paths_as_names),
      cmocka_unit_test(test_missing_names_the_folders),
      cmocka_unit_test(test_clash_and_unsafe_folder),
      cmocka_unit_test(test_rejects_non_plugin_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
