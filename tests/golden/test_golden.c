/* Every line of commands.txt (name|exit code|arguments) runs `rigor ARGUMENTS` in this folder,
 * and its standard output must equal expected/NAME.out byte for byte. With
 * RIGOR_GOLDEN_UPDATE=1 the outputs are written there instead: review the diff before
 * committing it, since it is the change a user sees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"

#define GOLDEN_DIR RIGOR_SOURCE_DIR "/tests/golden"

/* The first line where two texts differ, for a message that points at the change. */
static int first_difference(const char *a, const char *b) {
  int line = 1;
  for (; *a && *a == *b; a++, b++)
    if (*a == '\n') line++;
  return line;
}

static void check_one(const char *name, int want_rc, const char *args, int update) {
  char actual[4096], expected[4096], cmd[8192];
  snprintf(actual, sizeof actual, "%s/golden-%s.out", RIGOR_BINARY_DIR, name);
  snprintf(expected, sizeof expected, "%s/expected/%s.out", GOLDEN_DIR, name);
  snprintf(cmd, sizeof cmd, "cd '%s' && COLUMNS=0 '%s' %s </dev/null >'%s' 2>/dev/null", GOLDEN_DIR,
           RIGOR_EXE, args, update ? expected : actual);
  int status = system(cmd);
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (rc != want_rc) fail_msg("%s: rigor %s exited %d, expected %d", name, args, rc, want_rc);
  if (update) return;
  size_t n_got = 0, n_want = 0;
  char *got = test_slurp(actual, &n_got), *want = test_slurp(expected, &n_want);
  assert_non_null(got);
  if (!want) fail_msg("%s: %s is missing (RIGOR_GOLDEN_UPDATE=1 writes it)", name, expected);
  if (n_got != n_want || memcmp(got, want, n_got) != 0)
    fail_msg("%s: rigor %s differs from %s from line %d on (see %s)", name, args, expected,
             first_difference(got, want), actual);
  free(got);
  free(want);
  unlink(actual);
}

static void golden_outputs(void **state) {
  (void)state;
  const char *update_env = getenv("RIGOR_GOLDEN_UPDATE");
  int update = update_env && strcmp(update_env, "1") == 0;
  char *list = test_slurp(GOLDEN_DIR "/commands.txt", NULL);
  assert_non_null(list);
  int checked = 0;
  for (char *save = NULL, *line = strtok_r(list, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#' || line[0] == '\0') continue;
    char *name = line, *rc = strchr(name, '|');
    assert_non_null(rc);
    *rc++ = '\0';
    char *args = strchr(rc, '|');
    assert_non_null(args);
    *args++ = '\0';
    check_one(name, atoi(rc), args, update);
    checked++;
  }
  assert_true(checked > 0);
  free(list);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(golden_outputs)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
