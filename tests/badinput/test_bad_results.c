/* Malformed results files through `rigor report`, `rigor compare`, `rigor rounds` and
 * `rigor run --resume`: each is refused with its exact file:line:col message and exit status 2,
 * and --resume leaves the file as it was. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_files.h"
#include <jansson.h>

#include "support.h"

#define CORPUS RIGOR_SOURCE_DIR "/tests/badinput/results"

typedef struct bad_results {
  const char *file;
  const char *message; /* without the "rigor COMMAND: " prefix */
} bad_results_t;

static const bad_results_t cases[] = {
    /* Found by fuzz_analysis: a huge run index made the analysis allocate 32 GiB. */
    {"fuzz_run_index_oom.jsonl",
     "fuzz_run_index_oom.jsonl:2:1: \"run\" must be an integer from 0 to 9999999"},
    {"array_record.jsonl", "array_record.jsonl:2:1: a record must be a JSON object"},
    {"attempt_negative.jsonl",
     "attempt_negative.jsonl:2:1: \"attempt\" must be an integer from 0 to 2147483647"},
    {"bad_utf8.jsonl", "bad_utf8.jsonl:2:78: unable to decode byte 0xff near '\"'"},
    {"binary_junk.jsonl", "binary_junk.jsonl:1:1: unable to decode byte 0x89"},
    {"cut_middle_line.jsonl", "cut_middle_line.jsonl:3:200: '}' expected near end of file"},
    {"cycle_object.jsonl",
     "cycle_object.jsonl:2:1: \"cycle\" must be an integer from 0 to 2147483647"},
    {"deep_nesting.jsonl", "deep_nesting.jsonl:2:2092: maximum parsing depth reached near '['"},
    {"empty.jsonl", "empty.jsonl: no records (empty file)"},
    {"experiment_missing.jsonl",
     "experiment_missing.jsonl:2:1: run record has no \"experiment\" name"},
    {"experiment_number.jsonl",
     "experiment_number.jsonl:2:1: sample record has no \"experiment\" name"},
    {"integer_overflow.jsonl", "integer_overflow.jsonl:2:243: too big integer"},
    {"nan_literal.jsonl", "nan_literal.jsonl:2:134: invalid token near 'NaN'"},
    {"nul_byte.jsonl", "nul_byte.jsonl:2:40: control character 0x0 near '\"po'"},
    {"number_record.jsonl", "number_record.jsonl:1:2: '[' or '{' expected near '42'"},
    {"only_cut_line.jsonl", "only_cut_line.jsonl: no records (only a cut last line)"},
    {"point_huge.jsonl", "point_huge.jsonl:3:1: \"point\" must be an integer from 0 to 99999"},
    {"real_overflow.jsonl", "real_overflow.jsonl:2:136: real number overflow near '1e999'"},
    {"run_fraction.jsonl", "run_fraction.jsonl:2:1: \"run\" must be an integer from 0 to 9999999"},
    {"run_huge.jsonl", "run_huge.jsonl:2:1: \"run\" must be an integer from 0 to 9999999"},
    {"run_negative.jsonl", "run_negative.jsonl:2:1: \"run\" must be an integer from 0 to 9999999"},
    {"run_string.jsonl", "run_string.jsonl:2:1: \"run\" must be an integer from 0 to 9999999"},
    {"schema_future.jsonl",
     "schema_future.jsonl:1:1: unsupported schema 'rigor.result/2' (expected 'rigor.result/1')"},
    {"schema_missing.jsonl",
     "schema_missing.jsonl:1:1: unsupported schema '(missing)' (expected 'rigor.result/1')"},
    {"schema_number.jsonl",
     "schema_number.jsonl:1:1: unsupported schema '(missing)' (expected 'rigor.result/1')"},
    {"single_quotes.jsonl", "single_quotes.jsonl:1:2: string or '}' expected near '''"},
    {"trailing_garbage.jsonl", "trailing_garbage.jsonl:2:697: end of file expected near ','"},
    {"two_records_one_line.jsonl",
     "two_records_one_line.jsonl:2:696: end of file expected near '{'"},
    {"type_missing.jsonl", "type_missing.jsonl:2:1: record has no \"type\""},
    {"type_number.jsonl", "type_number.jsonl:2:1: record has no \"type\""},
    {"type_unknown.jsonl", "type_unknown.jsonl:2:1: unknown record type 'measurement'"},
    /* An editor's byte order mark, named as such rather than quoted invisibly. */
    {"utf8_bom.jsonl",
     "utf8_bom.jsonl:1:1: starts with a UTF-8 byte order mark (bytes EF BB BF), which a results "
     "file does not hold; remove it (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)"},
    {"mixed_hash.jsonl", "mixed_hash.jsonl:7:1: experiment 'small' appears again with hash "
                         "ffffffffffff…, the first record has 20eabb54be03…: the file mixes two "
                         "configurations of one experiment"},
    {"variant_huge.jsonl",
     "variant_huge.jsonl:2:1: \"variant\" must be an integer from 0 to 99999"},
};

#define N_CASES (sizeof cases / sizeof *cases)

static void assert_refused(const cmd_result_t *r, const char *command, const char *message) {
  char expected[1024];
  snprintf(expected, sizeof expected, "rigor %s: %s\n", command, message);
  assert_int_equal(r->exit_code, 2);
  assert_string_equal(r->out, "");
  assert_string_equal(r->err, expected);
}

static void test_report_refuses_each(void **st) {
  (void)st;
  for (size_t i = 0; i < N_CASES; i++) {
    const char *args[] = {"report", cases[i].file, NULL};
    cmd_result_t r = rigor_exec(CORPUS, args);
    assert_refused(&r, "report", cases[i].message);
    cmd_result_free(&r);
  }
}

static void test_compare_refuses_each_side(void **st) {
  (void)st;
  for (size_t i = 0; i < N_CASES; i++) {
    const char *as_base[] = {"compare", cases[i].file, "valid.jsonl", NULL};
    cmd_result_t r = rigor_exec(CORPUS, as_base);
    assert_refused(&r, "compare", cases[i].message);
    cmd_result_free(&r);
    const char *as_candidate[] = {"compare", "valid.jsonl", cases[i].file, NULL};
    r = rigor_exec(CORPUS, as_candidate);
    assert_refused(&r, "compare", cases[i].message);
    cmd_result_free(&r);
  }
}

/* Rounds read each file as report does: one that cannot be read is refused whole, in the same
 * words, and never taken for an invalid round. */
static void test_rounds_refuses_each(void **st) {
  (void)st;
  for (size_t i = 0; i < N_CASES; i++) {
    const char *args[] = {"rounds", "valid.jsonl", cases[i].file, NULL};
    cmd_result_t r = rigor_exec(CORPUS, args);
    assert_refused(&r, "rounds", cases[i].message);
    cmd_result_free(&r);
  }
}

static void test_valid_file_reports(void **st) {
  (void)st;
  const char *args[] = {"report", "valid.jsonl", NULL};
  cmd_result_t r = rigor_exec(CORPUS, args);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "experiment small"));
  cmd_result_free(&r);
}

/* Damage that a report can read around: the same records written twice count once, a sample of
 * another variant than its run's is ignored, each with a note; a last record without its final
 * newline reads like the whole file. */
static void test_tolerated_damage_is_counted_once(void **st) {
  (void)st;
  const char *valid[] = {"report", "valid.jsonl", "--format", "json", NULL};
  cmd_result_t good = rigor_exec(CORPUS, valid);
  assert_int_equal(good.exit_code, 0);
  const char *dup[] = {"report", "duplicated_records.jsonl", NULL};
  cmd_result_t r = rigor_exec(CORPUS, dup);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "1 run records (and their 4 samples) repeat a run and attempt"));
  assert_non_null(strstr(r.out, "4        0  2        68.75    115.00"));
  cmd_result_free(&r);
  const char *mismatch[] = {"report", "variant_mismatch.jsonl", NULL};
  r = rigor_exec(CORPUS, mismatch);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "1 samples name another variant than their run"));
  assert_non_null(strstr(r.out, "4        0  1        22.50     22.50"));
  assert_null(strstr(r.out, "99999"));
  cmd_result_free(&r);
  const char *no_newline[] = {"report", "no_final_newline.jsonl", "--format", "json", NULL};
  r = rigor_exec(CORPUS, no_newline);
  assert_int_equal(r.exit_code, 0);
  /* Same rows as the valid file; only the source name differs. */
  assert_non_null(strstr(r.out, "\"median\""));
  size_t rows_good = 0, rows = 0;
  for (const char *p = good.out; (p = strstr(p, "\"verdict\"")); p++)
    rows_good++;
  for (const char *p = r.out; (p = strstr(p, "\"verdict\"")); p++)
    rows++;
  assert_int_equal(rows, rows_good);
  cmd_result_free(&r);
  cmd_result_free(&good);
}

/* Samples whose time is zero or negative, though marked ok, are invalid samples: counted as
 * such, never a figure (valid.jsonl with three times made -115 ns, -22.5 ns and 0). */
static void test_nonpositive_times_are_invalid_samples(void **st) {
  (void)st;
  const char *args[] = {"report", "time_nonpositive.jsonl", "--format", "json", NULL};
  cmd_result_t r = rigor_exec(CORPUS, args);
  assert_int_equal(r.exit_code, 0);
  json_error_t jerr;
  json_t *doc = json_loads(r.out, 0, &jerr);
  assert_non_null(doc);
  json_t *rows = json_object_get(json_array_get(json_object_get(doc, "experiments"), 0), "rows");
  assert_int_equal(json_array_size(rows), 4);
  const struct { int invalid, n; } expected[] = {{2, 0}, {0, 2}, {1, 1}, {0, 2}};
  for (size_t i = 0; i < 4; i++) {
    json_t *row = json_array_get(rows, i);
    assert_int_equal(json_integer_value(json_object_get(row, "invalid")), expected[i].invalid);
    json_t *time = json_object_get(row, "time_s");
    assert_int_equal(json_integer_value(json_object_get(time, "n")), expected[i].n);
    json_t *min = json_object_get(time, "min");
    if (json_is_number(min)) assert_true(json_number_value(min) > 0);
  }
  json_decref(doc);
  cmd_result_free(&r);
}

static char *slurp(const char *path, size_t *len) {
  char *data = test_slurp(path, len);
  assert_non_null(data);
  return data;
}

/* --resume reads the file before appending: a damaged one stops the run and stays untouched.
 * An empty file or a lone cut line holds no run yet, so resuming over it starts afresh. */
static void test_resume_refuses_damaged_file(void **st) {
  (void)st;
  char *dir = tmpdir_make();
  char *cfg = path_join(dir, "small.yaml");
  write_file(cfg, "schema: 1\nname: small\nplugin: \"null\"\ntiming: {cycles: 1}\n"
                  "output: out.jsonl\n");
  char *out = path_join(dir, "out.jsonl");
  for (size_t i = 0; i < N_CASES; i++) {
    size_t name_len = strlen(cases[i].file);
    if (cases[i].message[name_len] != ':' || strstr(cases[i].message, ": no records")) continue;
    /* A rule of the analysis, not of the reader: resume refuses such a file by its hash. */
    if (strstr(cases[i].message, "mixes two configurations")) continue;
    char *src = path_join(CORPUS, cases[i].file);
    size_t len, after_len;
    char *before = slurp(src, &len);
    FILE *f = fopen(out, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(before, 1, len, f), len);
    fclose(f);
    const char *args[] = {"run",         cfg, "--resume", "--plugin-path", RIGOR_TEST_PLUGIN_DIR,
                          "--no-report", NULL};
    cmd_result_t r = rigor_exec(dir, args);
    char expected[1024];
    snprintf(expected, sizeof expected, "rigor: out.jsonl%s\n", cases[i].message + name_len);
    assert_int_equal(r.exit_code, 2);
    assert_string_equal(r.err, expected);
    char *after = slurp(out, &after_len);
    assert_int_equal(after_len, len);
    assert_memory_equal(after, before, len);
    free(after);
    free(before);
    free(src);
    cmd_result_free(&r);
  }
  free(out);
  free(cfg);
  tmpdir_remove(dir);
}

/* Out of memory in the middle of a line is said as such, with the file and line, and the store
 * keeps nothing of the file: a 120 MiB experiment record read with 300 MiB of address space.
 * Address space is what a sanitizer's shadow memory takes first, so sanitized builds skip. */
static void test_out_of_memory_is_said(void **st) {
  (void)st;
#if defined(__SANITIZE_ADDRESS__)
  skip();
#endif
  char *dir = tmpdir_make();
  char *results = path_join(dir, "huge.jsonl"), *db = path_join(dir, "store.db");
  FILE *f = fopen(results, "w");
  assert_non_null(f);
  fputs("{\"type\": \"experiment\", \"experiment\": \"huge\", \"description\": \"", f);
  static char chunk[1 << 20];
  memset(chunk, 'x', sizeof chunk);
  for (int i = 0; i < 120; i++)
    assert_int_equal(fwrite(chunk, 1, sizeof chunk, f), sizeof chunk);
  fputs("\"}\n", f);
  assert_int_equal(fclose(f), 0);
  const char *const report[] = {"report", results, NULL};
  const char *const add[] = {"store", "add", results, "--db", db, NULL};
  const char *const *commands[] = {report, add};
  for (size_t c = 0; c < 2; c++) {
    char *err_path = path_join(dir, "err.txt");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
      struct rlimit lim = {300u << 20, 300u << 20};
      FILE *e = freopen(err_path, "w", stderr);
      if (!e || setrlimit(RLIMIT_AS, &lim) != 0) _exit(99);
      const char *argv[8] = {RIGOR_EXE};
      for (size_t i = 0; commands[c][i]; i++)
        argv[i + 1] = commands[c][i];
      execv(RIGOR_EXE, (char *const *)argv);
      _exit(98);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    char *err = read_file(err_path);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 ||
        !strstr(err, "huge.jsonl:1: out of memory reading this line"))
      fail_msg("%s: status %d, stderr: %s", commands[c][0], status, err);
    free(err);
    free(err_path);
  }
  /* The store was made, and holds no import. */
  const char *const ls[] = {"store", "ls", "--db", db, NULL};
  cmd_result_t r = rigor_exec(dir, ls);
  assert_int_equal(r.exit_code, 0);
  assert_null(strstr(r.out, "huge"));
  cmd_result_free(&r);
  free(results), free(db);
  tmpdir_remove(dir);
}

/* Times 2e298 times another's are valid numbers: compare prints them in exponent form (no line
 * becomes a wall of digits) and says why no verdict can be read, in every format. */
static void test_huge_ratio_in_exponent_form(void **st) {
  (void)st;
  char *dir = tmpdir_make();
  char *cand = path_join(dir, "cand.jsonl");
  FILE *in = fopen(RIGOR_SOURCE_DIR "/tests/golden/cand.jsonl", "r"), *out = fopen(cand, "w");
  assert_non_null(in);
  assert_non_null(out);
  static char line[1 << 16];
  while (fgets(line, sizeof line, in)) {
    json_error_t je;
    json_t *rec = json_loads(line, 0, &je);
    assert_non_null(rec);
    json_t *t = json_object_get(rec, "time_s");
    if (json_is_real(t)) json_object_set_new(rec, "time_s", json_real(json_real_value(t) * 2e298));
    char *text = json_dumps(rec, JSON_COMPACT);
    fprintf(out, "%s\n", text);
    free(text);
    json_decref(rec);
  }
  fclose(in);
  assert_int_equal(fclose(out), 0);
  const char *formats[] = {"text", "md", "csv", "html"};
  for (size_t f = 0; f < 4; f++) {
    const char *const args[] = {
        "compare", RIGOR_SOURCE_DIR "/tests/golden/base.jsonl", cand, "--format", formats[f], NULL};
    cmd_result_t r = rigor_exec(dir, args);
    assert_int_equal(r.exit_code, 0);
    if (!strstr(r.out, "e+")) fail_msg("%s: no exponent form:\n%s", formats[f], r.out);
    /* No number of more than 20 digits in a row anywhere. */
    size_t run = 0;
    for (const char *p = r.out; *p; p++) {
      run = isdigit((unsigned char)*p) ? run + 1 : 0;
      if (run > 20) fail_msg("%s: a wall of digits:\n%.300s", formats[f], p - 20);
    }
    if (f == 0) assert_non_null(strstr(r.out, "beyond what a double holds"));
    cmd_result_free(&r);
  }
  free(cand);
  tmpdir_remove(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_report_refuses_each),
      cmocka_unit_test(test_compare_refuses_each_side),
      cmocka_unit_test(test_rounds_refuses_each),
      cmocka_unit_test(test_nonpositive_times_are_invalid_samples),
      cmocka_unit_test(test_valid_file_reports),
      cmocka_unit_test(test_tolerated_damage_is_counted_once),
      cmocka_unit_test(test_resume_refuses_damaged_file),
      cmocka_unit_test(test_out_of_memory_is_said),
      cmocka_unit_test(test_huge_ratio_in_exponent_form),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
