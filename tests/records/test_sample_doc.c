/* docs/results-format.md documents the sample record the table of sample_record.h describes:
 * every member of the table has a row (or, for schema, type and experiment, the paragraph on
 * what every record has), every name in the rows is a member, and each object's row names its
 * members. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sample_record.h"

#define DOC RIGOR_SOURCE_DIR "/docs/results-format.md"

enum { MAX_ROWS = 64, MAX_NAMES = 8, NAME_LEN = 64, LINE_LEN = 4096 };

typedef struct doc_row {
  char names[MAX_NAMES][NAME_LEN]; /* the backquoted names of the first cell */
  size_t n_names;
  char meaning[LINE_LEN];
} doc_row_t;

typedef struct sample_doc {
  char intro[LINE_LEN]; /* the text before the first section */
  doc_row_t rows[MAX_ROWS];
  size_t n_rows;
} sample_doc_t;

static void read_names(const char *cell, doc_row_t *row) {
  for (const char *p = strchr(cell, '`'); p && row->n_names < MAX_NAMES; p = strchr(p, '`')) {
    const char *end = strchr(p + 1, '`');
    assert_non_null(end);
    snprintf(row->names[row->n_names++], NAME_LEN, "%.*s", (int)(end - p - 1), p + 1);
    p = end + 1;
  }
}

/* The intro, and the rows of the table under "## `sample`". */
static void read_doc(sample_doc_t *doc) {
  FILE *f = fopen(DOC, "r");
  assert_non_null(f);
  memset(doc, 0, sizeof *doc);
  char line[LINE_LEN];
  bool in_intro = true, in_sample = false;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "## ", 3) == 0) {
      in_intro = false;
      in_sample = strncmp(line, "## `sample`", 11) == 0;
      continue;
    }
    size_t used = strlen(doc->intro);
    if (in_intro) snprintf(doc->intro + used, sizeof doc->intro - used, "%s", line);
    if (!in_sample || line[0] != '|' || strncmp(line, "|---", 4) == 0 ||
        strncmp(line, "| member |", 10) == 0)
      continue;
    assert_true(doc->n_rows < MAX_ROWS);
    doc_row_t *row = &doc->rows[doc->n_rows++];
    char *second = strchr(line + 1, '|');
    assert_non_null(second);
    *second = '\0';
    read_names(line + 1, row);
    snprintf(row->meaning, sizeof row->meaning, "%s", second + 1);
  }
  fclose(f);
  assert_true(doc->n_rows > 0);
}

static const doc_row_t *row_naming(const sample_doc_t *doc, const char *key) {
  for (size_t r = 0; r < doc->n_rows; r++)
    for (size_t n = 0; n < doc->rows[r].n_names; n++)
      if (strcmp(doc->rows[r].names[n], key) == 0) return &doc->rows[r];
  return NULL;
}

/* `word` appears in `text` as a whole word (not inside a longer name). */
static bool has_word(const char *text, const char *word) {
  size_t len = strlen(word);
  for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
    bool starts = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    bool ends = !(isalnum((unsigned char)p[len]) || p[len] == '_');
    if (starts && ends) return true;
  }
  return false;
}

static int top_member(const char *key) {
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++)
    if (rigor_sample_members[id].parent == RIGOR_SAMPLE_TOP &&
        strcmp(rigor_sample_members[id].key, key) == 0)
      return id;
  return -1;
}

static void test_every_member_is_documented(void **state) {
  (void)state;
  sample_doc_t *doc = malloc(sizeof *doc);
  read_doc(doc);
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++) {
    const rigor_sample_member_t *m = &rigor_sample_members[id];
    if (m->parent != RIGOR_SAMPLE_TOP) continue;
    char quoted[NAME_LEN + 4];
    snprintf(quoted, sizeof quoted, "`\"%s\"", m->key);
    if (!row_naming(doc, m->key) && !strstr(doc->intro, quoted))
      fail_msg("sample member \"%s\" has no row in %s", m->key, DOC);
  }
  free(doc);
}

static void test_every_documented_name_is_a_member(void **state) {
  (void)state;
  sample_doc_t *doc = malloc(sizeof *doc);
  read_doc(doc);
  for (size_t r = 0; r < doc->n_rows; r++)
    for (size_t n = 0; n < doc->rows[r].n_names; n++)
      if (top_member(doc->rows[r].names[n]) < 0)
        fail_msg("%s documents \"%s\", which the sample record does not have", DOC,
                 doc->rows[r].names[n]);
  free(doc);
}

static bool is_child(int parent, const char *key, size_t len) {
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++)
    if (rigor_sample_members[id].parent == parent && strlen(rigor_sample_members[id].key) == len &&
        strncmp(rigor_sample_members[id].key, key, len) == 0)
      return true;
  return false;
}

/* The names in the first {...} of an object's row, each a member of that object. */
static void assert_braces_name_members(const doc_row_t *row, int object) {
  const char *p = strchr(row->meaning, '{');
  assert_non_null(p);
  const char *end = strchr(p, '}');
  assert_non_null(end);
  while (p && p < end) {
    p++;
    while (*p == ' ')
      p++;
    size_t len = 0;
    while (isalnum((unsigned char)p[len]) || p[len] == '_')
      len++;
    if (!is_child(object, p, len))
      fail_msg("%s names \"%.*s\" in \"%s\", which the sample record does not have", DOC, (int)len,
               p, rigor_sample_members[object].key);
    p = strchr(p, ',');
  }
}

static void test_object_rows_name_their_members(void **state) {
  (void)state;
  sample_doc_t *doc = malloc(sizeof *doc);
  read_doc(doc);
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++) {
    const rigor_sample_member_t *m = &rigor_sample_members[id];
    if (m->parent == RIGOR_SAMPLE_TOP) continue;
    const char *object = rigor_sample_members[m->parent].key;
    const doc_row_t *row = row_naming(doc, object);
    assert_non_null(row);
    if (!has_word(row->meaning, m->key))
      fail_msg("the row of \"%s\" in %s does not name its member \"%s\"", object, DOC, m->key);
  }
  for (int id = 0; id < RIGOR_SAMPLE_MEMBER_COUNT; id++)
    if (rigor_sample_members[id].kind == RIGOR_SAMPLE_OBJECT)
      assert_braces_name_members(row_naming(doc, rigor_sample_members[id].key), id);
  free(doc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_member_is_documented),
      cmocka_unit_test(test_every_documented_name_is_a_member),
      cmocka_unit_test(test_object_rows_name_their_members),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
