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

/* The first search folder that holds the plugin wins, as on PATH; the one it shadows is noted. */
static void test_first_folder_wins_and_unsafe_folder(void **st) {
  (void)st;
  char *a = tmpdir_make(), *b = tmpdir_make();
  char *pa = path_join(a, "null.so"), *pb = path_join(b, "null.so");
  copy_file(RIGOR_PLUGIN_DIR "/null.so", pa);
  copy_file(RIGOR_PLUGIN_DIR "/null.so", pb);
  const char *dirs[] = {a, b, NULL};
  rigor_plugin_search_t search = {dirs, false, false};
  rigor_loaded_t *p = NULL;
  char err[4096];
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), 0);
  assert_string_equal(p->path, pa);
  assert_string_equal(p->shadowed, pb);
  rigor_plugin_unload(p);

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

/* The file, its resolved path and every folder above it are checked, not only the folder the
 * search named. */
static void test_unsafe_paths_are_refused(void **st) {
  (void)st;
  char *safe = tmpdir_make(), *open_dir = tmpdir_make();
  char *plugin = path_join(safe, "null.so");
  copy_file(RIGOR_PLUGIN_DIR "/null.so", plugin);
  const char *dirs[] = {safe, NULL};
  rigor_plugin_search_t search = {.extra_dirs = dirs};
  rigor_loaded_t *p = NULL;
  char err[4096];

  chmod(plugin, 0666); /* a world-writable file in a safe folder */
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "is world-writable"));
  chmod(plugin, 0664);
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "is group-writable"));
  chmod(plugin, 0644);
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), 0);
  rigor_plugin_unload(p);

  /* A link in a safe folder to a plugin in a world-writable one. */
  char *target = path_join(open_dir, "real.so"), *link = path_join(safe, "null.so");
  copy_file(RIGOR_PLUGIN_DIR "/null.so", target);
  chmod(target, 0644);
  chmod(open_dir, 0777);
  unlink(plugin);
  assert_int_equal(symlink(target, link), 0);
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "its path"));
  assert_non_null(strstr(err, "is world-writable"));
  unlink(link);

  /* A safe folder inside a world-writable (not sticky) parent. */
  char *inner = path_join(open_dir, "inner");
  assert_int_equal(mkdir(inner, 0755), 0);
  char *inner_plugin = path_join(inner, "null.so");
  copy_file(RIGOR_PLUGIN_DIR "/null.so", inner_plugin);
  chmod(inner_plugin, 0644);
  const char *inner_dirs[] = {inner, NULL};
  search.extra_dirs = inner_dirs;
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "is world-writable"));
  /* The same parent with the sticky bit, as /tmp has it: others cannot replace what is ours. */
  chmod(open_dir, 01777);
  assert_int_equal(rigor_plugin_load("null", &search, &p, err, sizeof err), 0);
  rigor_plugin_unload(p);
  unlink(inner_plugin);
  rmdir(inner);
  free(inner_plugin), free(inner), free(target), free(link), free(plugin);
  tmpdir_remove(safe);
  tmpdir_remove(open_dir);
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
      cmocka_unit_test(test_first_folder_wins_and_unsafe_folder),
      cmocka_unit_test(test_unsafe_paths_are_refused),
      cmocka_unit_test(test_rejects_non_plugin_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
