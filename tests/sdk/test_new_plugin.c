/* rigor new-plugin: writes every template file with the name filled in, refuses bad names and
 * occupied folders, and what it writes builds into a plugin that loads under its new name. */
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "sdk_util.h"
#include "test_host.h"

/* Formats a path, failing the test rather than truncating it. */
#define PATHF(buf, ...) assert_true(snprintf(buf, sizeof buf, __VA_ARGS__) < (int)sizeof buf)

#define TEMPLATE_DIR RIGOR_SOURCE_DIR "/examples/plugin-template"

static char template_files[32][256];
static int n_template_files;

static int collect_template_file(const char *path, const struct stat *st, int flag,
                                 struct FTW *ftw) {
  (void)st, (void)ftw;
  const char *rel = path + strlen(TEMPLATE_DIR) + 1;
  if (flag != FTW_F || strncmp(rel, "build", 5) == 0 || rel[0] == '.') return 0;
  assert_true(n_template_files < 32);
  snprintf(template_files[n_template_files++], sizeof template_files[0], "%s", rel);
  return 0;
}

/* Every `from` in `text` replaced by `to` (test-side reference for the substitution). */
static char *replace_all(const char *text, const char *from, const char *to) {
  size_t from_len = strlen(from), to_len = strlen(to);
  size_t cap = strlen(text) * (to_len > from_len ? to_len / from_len + 2 : 1) + 1;
  char *out = malloc(cap), *w = out;
  for (const char *r = text; *r;) {
    if (strncmp(r, from, from_len) == 0) {
      memcpy(w, to, to_len);
      w += to_len;
      r += from_len;
    } else {
      *w++ = *r++;
    }
  }
  *w = '\0';
  return out;
}

static char *fill(const char *text) {
  char *lower = replace_all(text, "skeleton", "fast_copy");
  char *both = replace_all(lower, "SKELETON", "FAST_COPY");
  free(lower);
  return both;
}

/* Runs the command with stderr captured into *err (malloc'd). */
static int new_plugin(int argc, char **argv, char **err) {
  char path[PATH_MAX];
  PATHF(path, "%s/tests/sdk-new-plugin-stderr-%ld.txt", RIGOR_BINARY_DIR, (long)getpid());
  fflush(stderr);
  int saved = dup(2);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(fd, 2);
  close(fd);
  int rc = rigor_cmd_new_plugin(argc, argv);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  *err = sdk_read_file(path, NULL);
  unlink(path);
  return rc;
}

static void test_writes_the_template_with_the_name_filled_in(void **state) {
  (void)state;
  char dir[PATH_MAX], out[PATH_MAX];
  sdk_scratch_dir("new-plugin", dir, sizeof dir);
  PATHF(out, "%s/fast_copy", dir);
  char *argv[] = {"new-plugin", "fast_copy", out, NULL};
  char *err = NULL;
  assert_int_equal(new_plugin(3, argv, &err), 0);
  assert_string_equal(err, "");
  free(err);

  n_template_files = 0;
  assert_int_equal(nftw(TEMPLATE_DIR, collect_template_file, 16, FTW_PHYS), 0);
  assert_true(n_template_files >= 4);
  for (int i = 0; i < n_template_files; i++) {
    char src[PATH_MAX], dst[PATH_MAX];
    PATHF(src, "%s/%s", TEMPLATE_DIR, template_files[i]);
    char *rel = fill(template_files[i]);
    PATHF(dst, "%s/%s", out, rel);
    free(rel);
    char *expected_raw = sdk_read_file(src, NULL);
    char *got = sdk_read_file(dst, NULL);
    assert_non_null(expected_raw);
    if (!got) fail_msg("%s was not written", dst);
    char *expected = fill(expected_raw);
    if (strcmp(expected, got) != 0)
      fail_msg("%s differs from %s with the name filled in: rebuild rigor to re-embed the "
               "template",
               dst, src);
    assert_null(strstr(got, "skeleton"));
    assert_null(strstr(got, "SKELETON"));
    free(expected_raw);
    free(expected);
    free(got);
  }
  char path[PATH_MAX];
  PATHF(path, "%s/src/fast_copy.c", out);
  assert_int_equal(access(path, R_OK), 0);
  PATHF(path, "%s/configs/fast_copy.yaml", out);
  assert_int_equal(access(path, R_OK), 0);
  PATHF(path, "%s/CMakeLists.txt", out);
  char *cmake = sdk_read_file(path, NULL);
  assert_non_null(strstr(cmake, "rigor_add_plugin(fast_copy SOURCES src/fast_copy.c)"));
  assert_non_null(strstr(cmake, "find_package(rigor REQUIRED)"));
  free(cmake);

  /* What it wrote builds, warning-free, into a plugin that loads under the new name. */
  char cmd[3 * PATH_MAX + 256], so[PATH_MAX];
  PATHF(so, "%s/fast_copy.so", out);
  PATHF(cmd,
        "'%s' -std=c11 -O1 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden "
        "-I'%s/core/include' -o '%s' '%s/src/fast_copy.c'",
        SDK_CC, RIGOR_SOURCE_DIR, so, out);
  char *cc_out = NULL;
  int cc_rc = sdk_run(cmd, &cc_out);
  if (cc_rc != 0) fail_msg("%s\n%s", cmd, cc_out);
  free(cc_out);
  void *handle = NULL;
  const rigor_plugin_t *d = test_plugin_open(so, "fast_copy", &handle);
  assert_string_equal(d->name, "fast_copy");
  assert_int_equal(d->n_params, 2);
  dlclose(handle);

  /* Its unit test builds against rigor/test_host.h alone and passes against the plugin. */
  char unit[PATH_MAX];
  PATHF(unit, "%s/test_fast_copy", out);
  PATHF(cmd,
        "'%s' -std=c11 -O1 -Wall -Wextra -Werror -I'%s/core/include' -o '%s' "
        "'%s/tests/test_fast_copy.c' -ldl -lm && '%s' '%s'",
        SDK_CC, RIGOR_SOURCE_DIR, unit, out, unit, so);
  cc_rc = sdk_run(cmd, &cc_out);
  if (cc_rc != 0) fail_msg("%s\n%s", cmd, cc_out);
  free(cc_out);
  sdk_remove_tree(dir);
}

static void test_defaults_dir_to_the_name(void **state) {
  (void)state;
  char dir[PATH_MAX], cwd[PATH_MAX];
  sdk_scratch_dir("new-plugin-cwd", dir, sizeof dir);
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(dir), 0);
  char *argv[] = {"new-plugin", "demo2", NULL};
  char *err = NULL;
  int rc = new_plugin(2, argv, &err);
  assert_int_equal(chdir(cwd), 0);
  assert_int_equal(rc, 0);
  free(err);
  char path[PATH_MAX];
  PATHF(path, "%s/demo2/src/demo2.c", dir);
  assert_int_equal(access(path, R_OK), 0);
  sdk_remove_tree(dir);
}

static void test_refuses_invalid_names(void **state) {
  (void)state;
  const char *bad[] = {"Fast", "9lives", "has-dash",
                       "a/b",  "",       "a_name_that_is_far_too_long_to_be_a_plugin_name_at_all"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *argv[] = {"new-plugin", (char *)bad[i], "/nonexistent/never-written", NULL};
    char *err = NULL;
    assert_int_equal(new_plugin(3, argv, &err), RIGOR_EXIT_USAGE);
    assert_non_null(strstr(err, "is not a valid plugin name"));
    free(err);
  }
}

static void test_refuses_an_occupied_folder(void **state) {
  (void)state;
  char dir[PATH_MAX], keep[PATH_MAX];
  sdk_scratch_dir("new-plugin-occupied", dir, sizeof dir);
  PATHF(keep, "%s/CMakeLists.txt", dir);
  FILE *f = fopen(keep, "w");
  fputs("mine\n", f);
  fclose(f);
  char *argv[] = {"new-plugin", "fast_copy", dir, NULL};
  char *err = NULL;
  assert_int_equal(new_plugin(3, argv, &err), RIGOR_EXIT_USAGE);
  assert_non_null(strstr(err, "already exists and is not an empty folder"));
  free(err);
  char *kept = sdk_read_file(keep, NULL);
  assert_string_equal(kept, "mine\n");
  free(kept);
  sdk_remove_tree(dir);
}

static void test_usage(void **state) {
  (void)state;
  char *argv[] = {"new-plugin", NULL};
  char *err = NULL;
  assert_int_equal(new_plugin(1, argv, &err), RIGOR_EXIT_USAGE);
  assert_non_null(strstr(err, "usage: rigor new-plugin NAME [DIR]"));
  free(err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_writes_the_template_with_the_name_filled_in),
      cmocka_unit_test(test_defaults_dir_to_the_name),
      cmocka_unit_test(test_refuses_invalid_names),
      cmocka_unit_test(test_refuses_an_occupied_folder),
      cmocka_unit_test(test_usage),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
