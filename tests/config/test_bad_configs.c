/* The bad-input corpus: every file under bad/ must fail with exactly the message bad/expected.txt
 * gives (file:line:col: message), followed by the source line and a caret. An expectation ending
 * in "..." is a prefix (the rest names this machine's plugin search path). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "experiment.h"
#include "support.h"

#define BAD_DIR RIGOR_SOURCE_DIR "/tests/config/bad"

static char *strip(const char *text, const char *prefix) {
  char *out = malloc(strlen(text) + 1), *w = out;
  size_t n = strlen(prefix);
  for (const char *r = text; *r;) {
    if (strncmp(r, prefix, n) == 0)
      r += n;
    else
      *w++ = *r++;
  }
  *w = '\0';
  return out;
}

static void check_case(const char *name, const char *expect) {
  char path[4096], err[8192] = "";
  snprintf(path, sizeof path, "%s/%s", BAD_DIR, name);
  rigor_config_t *cfg = NULL;
  int rc = load(path, NULL, &cfg, err, sizeof err);
  if (rc != RIGOR_ECONFIG || cfg) fail_msg("%s: expected a config error, got %d", name, rc);
  char *plain = strip(err, BAD_DIR "/");
  char *line = first_line(plain);
  size_t n = strlen(expect);
  bool prefix = n > 3 && strcmp(expect + n - 3, "...") == 0;
  if (prefix ? strncmp(line, expect, n - 3) != 0 : strcmp(line, expect) != 0)
    fail_msg("%s:\n  expected: %s\n  got:      %s", name, expect, line);
  /* A positioned message quotes its source line and puts a caret under the column. */
  const char *second = strchr(plain, '\n');
  const char *third = second ? strchr(second + 1, '\n') : NULL;
  unsigned at_line = 0, at_col = 0;
  const char *colon = strchr(line, ':');
  bool positioned = colon && sscanf(colon, ":%u:%u:", &at_line, &at_col) == 2;
  if (positioned && (!third || !strchr(third + 1, '^')))
    fail_msg("%s: no source line and caret after the message:\n%s", name, plain);
  free(line);
  free(plain);
}

static void test_corpus(void **state) {
  (void)state;
  FILE *f = fopen(BAD_DIR "/expected.txt", "r");
  assert_non_null(f);
  char line[2048];
  size_t cases = 0;
  char **names = NULL;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *tab = strchr(line, '\t');
    assert_non_null(tab);
    *tab = '\0';
    check_case(line, tab + 1);
    names = realloc(names, (cases + 1) * sizeof *names);
    names[cases++] = strdup(line);
  }
  fclose(f);
  assert_true(cases >= 100);
  /* Every file in the corpus has an expectation. */
  DIR *d = opendir(BAD_DIR);
  assert_non_null(d);
  struct dirent *ent;
  while ((ent = readdir(d))) {
    if (!strstr(ent->d_name, ".yaml")) continue;
    bool listed = false;
    for (size_t i = 0; i < cases && !listed; i++)
      listed = strcmp(names[i], ent->d_name) == 0;
    if (!listed) fail_msg("bad/%s has no line in expected.txt", ent->d_name);
  }
  closedir(d);
  for (size_t i = 0; i < cases; i++)
    free(names[i]);
  free(names);
}

static void test_unreadable_file(void **state) {
  (void)state;
  char err[512];
  rigor_config_t *cfg = NULL;
  assert_int_equal(load(BAD_DIR "/no-such-file.yaml", NULL, &cfg, err, sizeof err), RIGOR_ECONFIG);
  char *plain = strip(err, BAD_DIR "/");
  assert_string_equal(plain, "no-such-file.yaml: cannot read: No such file or directory");
  free(plain);
  assert_int_equal(load(BAD_DIR, NULL, &cfg, err, sizeof err), RIGOR_ECONFIG);
  assert_non_null(strstr(err, ": cannot read: it is a folder, not a file"));
  char fifo[] = "/tmp/rigor-config-fifo-XXXXXX";
  assert_non_null(mkdtemp(fifo));
  char path[64];
  snprintf(path, sizeof path, "%s/exp.yaml", fifo);
  assert_int_equal(mkfifo(path, 0600), 0);
  assert_int_equal(load(path, NULL, &cfg, err, sizeof err), RIGOR_ECONFIG); /* never blocks */
  assert_non_null(strstr(err, ": cannot read: it is a FIFO, not a file"));
  unlink(path);
  rmdir(fifo);
}

/* A file with CR-only line ends quotes the right line, caret under the column. */
static void test_cr_only_quotes_its_line(void **state) {
  (void)state;
  char err[1024];
  rigor_config_t *cfg = NULL;
  assert_int_equal(load(BAD_DIR "/cr_only.yaml", NULL, &cfg, err, sizeof err), RIGOR_ECONFIG);
  assert_non_null(strstr(err, "\n  timing: {iters: 0}\n                  ^"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_corpus),
      cmocka_unit_test(test_unreadable_file),
      cmocka_unit_test(test_cr_only_quotes_its_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
