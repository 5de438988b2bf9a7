/* The plugin `rigor new-plugin` writes is a skeleton that survives its first edit: a param renamed
 * and a param added in its params list (and the kernel's one use of the renamed field) leave a
 * plugin that builds with CMake against rigor's build folder, nothing installed, and passes its
 * own unit and run tests; its README names the new plugin's files and not the template's. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sdk_util.h"

#define PATHF(buf, ...) assert_true(snprintf(buf, sizeof buf, __VA_ARGS__) < (int)sizeof buf)

static void run_or_fail(const char *cmd) {
  char *out = NULL;
  int rc = sdk_run(cmd, &out);
  if (rc != 0) fail_msg("`%s` exited %d:\n%s", cmd, rc, out ? out : "");
  free(out);
}

static void test_rename_and_add_a_param_then_build_and_test(void **state) {
  (void)state;
  char dir[PATH_MAX], plugin[PATH_MAX], cmd[4 * PATH_MAX];
  sdk_scratch_dir("skeleton-edit", dir, sizeof dir);
  PATHF(plugin, "%s/demo", dir);
  PATHF(cmd, "'%s' new-plugin demo '%s'", RIGOR_EXE, plugin);
  run_or_fail(cmd);

  /* The edit a new author makes first: the template's `scale` becomes `factor` where it is
   * declared and where the kernel reads it, and a param `stride` joins the list. */
  PATHF(cmd,
        "cd '%s' && sed -i 's/\\bscale\\b/factor/g' src/demo_params.h src/demo.c && "
        "sed -i 's/^  X(DOUBLE, factor,/  X(UINT, stride, 1, 1, 64, \"elements between two "
        "touched ones\") \\\\\\n  X(DOUBLE, factor,/' src/demo_params.h && "
        "grep -q 'X(UINT, stride' src/demo_params.h && ! grep -qw scale src/demo_params.h",
        plugin);
  run_or_fail(cmd);

  /* Against the build tree's package, warnings as errors, then its own two tests. */
  PATHF(cmd,
        "cd '%s' && '%s' -S . -B build -DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_FLAGS=-Werror "
        "-DCMAKE_C_COMPILER='%s' && '%s' --build build && '%s' --test-dir build "
        "--output-on-failure",
        plugin, SDK_CMAKE, RIGOR_BINARY_DIR, SDK_CC, SDK_CMAKE, SDK_CTEST);
  run_or_fail(cmd);

  /* The schema rigor reads is the edited one. */
  char *out = NULL;
  PATHF(cmd, "'%s' plugins demo --plugin-path '%s/build'", RIGOR_EXE, plugin);
  assert_int_equal(sdk_run(cmd, &out), 0);
  if (!strstr(out, "factor") || !strstr(out, "stride") || strstr(out, "scale"))
    fail_msg("`%s` does not show the edited params:\n%s", cmd, out);
  free(out);

  /* The README speaks of this plugin's files, and of no template name. */
  char readme[PATH_MAX];
  PATHF(readme, "%s/README.md", plugin);
  char *text = sdk_read_file(readme, NULL);
  assert_non_null(text);
  assert_non_null(strstr(text, "# demo: a rigor plugin"));
  assert_non_null(strstr(text, "`src/demo_params.h`"));
  assert_non_null(strstr(text, "`configs/demo.yaml`"));
  assert_null(strstr(text, "skeleton"));
  assert_null(strstr(text, "NAME"));
  free(text);
  sdk_remove_tree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rename_and_add_a_param_then_build_and_test),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
