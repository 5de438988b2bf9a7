/* Every built plugin's README carries the schema block `rigor plugins NAME --format md` prints,
 * between the rigor:schema markers; scripts/update-plugin-readmes.sh regenerates them. */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sdk_util.h"

#define BEGIN_MARKER "<!-- rigor:schema:begin -->\n"
#define END_MARKER   "<!-- rigor:schema:end -->"

/* The text between the marker lines, malloc'd; NULL when the markers are missing. */
static char *schema_block(const char *readme) {
  const char *begin = strstr(readme, BEGIN_MARKER);
  if (!begin) return NULL;
  begin += strlen(BEGIN_MARKER);
  const char *end = strstr(begin, END_MARKER);
  if (!end || (end != begin && end[-1] != '\n')) return NULL;
  return strndup(begin, (size_t)(end - begin));
}

/* Trailing newlines do not count: the block is compared line for line. */
static void trim_newlines(char *s) {
  size_t n = strlen(s);
  while (n > 0 && s[n - 1] == '\n')
    s[--n] = '\0';
}

static void test_readme_blocks_match_the_schema(void **state) {
  (void)state;
  DIR *d = opendir(RIGOR_SOURCE_DIR "/plugins");
  if (!d) skip();
  int checked = 0, drifted = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char so[PATH_MAX], readme_path[PATH_MAX];
    snprintf(so, sizeof so, "%s/%s.so", RIGOR_PLUGIN_DIR, e->d_name);
    snprintf(readme_path, sizeof readme_path, "%s/plugins/%s/README.md", RIGOR_SOURCE_DIR,
             e->d_name);
    if (access(so, R_OK) != 0) {
      printf("# %s: not built here, README not checked\n", e->d_name);
      continue;
    }
    char *readme = sdk_read_file(readme_path, NULL);
    if (!readme) {
      printf("plugins/%s/README.md: missing\n", e->d_name);
      drifted++;
      continue;
    }
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd, "'%s' plugins %s --format md", RIGOR_EXE, e->d_name);
    char *schema = NULL;
    int rc = sdk_run(cmd, &schema);
    assert_int_equal(rc, 0);
    char *block = schema_block(readme);
    if (!block) {
      printf("plugins/%s/README.md: no '<!-- rigor:schema:begin -->' ... "
             "'<!-- rigor:schema:end -->' block\n",
             e->d_name);
      drifted++;
    } else {
      trim_newlines(block);
      trim_newlines(schema);
      if (strcmp(block, schema) != 0) {
        printf("plugins/%s/README.md: schema block differs from `rigor plugins %s --format md`\n",
               e->d_name, e->d_name);
        drifted++;
      }
    }
    checked++;
    free(block);
    free(schema);
    free(readme);
  }
  closedir(d);
  if (drifted)
    fail_msg("%d plugin README(s) drifted from the schema: run scripts/update-plugin-readmes.sh "
             "%s and commit the result",
             drifted, RIGOR_EXE);
  if (checked == 0) skip();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_readme_blocks_match_the_schema),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
