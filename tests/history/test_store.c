/* The results store, the same cases against SQLite and PostgreSQL (argv[1]). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "analysis.h"
#include "reader.h"
#include "store.h"
#include "rigor/plugin.h"
#include "support.h"

static hx_backend_t backend;

typedef struct fixture {
  char url[1024];
  rigor_store_t *s;
  char dir[512];
} fixture_t;

static int setup(void **state) {
  static int serial;
  fixture_t *f = calloc(1, sizeof *f);
  char name[64];
  snprintf(name, sizeof name, "rigor_store_%s_%d", hx_backend_name(backend), serial++);
  hx_fresh_db(backend, name, f->url, sizeof f->url);
  snprintf(f->dir, sizeof f->dir, "%s", hx_scratch(name));
  char err[1024] = "";
  if (rigor_store_open(f->url, true, &f->s, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture_t *f = *state;
  rigor_store_close(f->s);
  free(f);
  return 0;
}

static void migrated(fixture_t *f) {
  char err[1024] = "";
  assert_int_equal(rigor_store_migrate(f->s, 0, NULL, NULL, err, sizeof err), 0);
}

static size_t n_imports(fixture_t *f) {
  char err[1024] = "";
  json_t *list = NULL;
  assert_int_equal(rigor_store_list(f->s, &list, err, sizeof err), 0);
  size_t n = json_array_size(list);
  json_decref(list);
  return n;
}

static size_t n_records(fixture_t *f) {
  char err[1024] = "";
  json_t *all = NULL;
  rigor_store_filter_t none = {0};
  assert_int_equal(rigor_store_records(f->s, &none, &all, err, sizeof err), 0);
  size_t n = json_array_size(all);
  json_decref(all);
  return n;
}

static void path_in(const fixture_t *f, const char *file, char *out, size_t len) {
  snprintf(out, len, "%s/%s", f->dir, file);
}

static void test_migrations_from_empty(void **state) {
  fixture_t *f = *state;
  char err[1024] = "";
  int v = -1, from = -1, to = -1;
  assert_int_equal(rigor_store_version(f->s, &v, err, sizeof err), 0);
  assert_int_equal(v, 0);
  assert_int_equal(rigor_store_require_current(f->s, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "no rigor store yet"));
  assert_int_equal(rigor_store_migrate(f->s, 0, &from, &to, err, sizeof err), 0);
  assert_int_equal(from, 0);
  assert_int_equal(to, RIGOR_STORE_SCHEMA_VERSION);
  assert_int_equal(rigor_store_version(f->s, &v, err, sizeof err), 0);
  assert_int_equal(v, RIGOR_STORE_SCHEMA_VERSION);
  assert_int_equal(rigor_store_require_current(f->s, err, sizeof err), 0);
  /* Again: nothing to do, nothing broken. */
  assert_int_equal(rigor_store_migrate(f->s, 0, &from, &to, err, sizeof err), 0);
  assert_int_equal(from, RIGOR_STORE_SCHEMA_VERSION);
  assert_int_equal(to, RIGOR_STORE_SCHEMA_VERSION);
  assert_int_equal(n_imports(f), 0);
  assert_int_equal(n_records(f), 0);
  /* A version this build does not know is refused by name. */
  assert_int_equal(
      rigor_store_migrate(f->s, RIGOR_STORE_SCHEMA_VERSION + 1, NULL, NULL, err, sizeof err),
      RIGOR_EINVAL);
  assert_non_null(strstr(err, "unknown to this rigor"));
}

static void test_newer_store_refused(void **state) {
  fixture_t *f = *state;
  migrated(f);
  hx_sql(backend, f->url,
         "INSERT INTO rigor_schema (version, description, applied_at) VALUES (99, 'future', "
         "'2030-01-01T00:00:00.000Z')");
  char err[1024] = "";
  assert_int_equal(rigor_store_migrate(f->s, 0, NULL, NULL, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "schema version 99, newer than this rigor's"));
  assert_int_equal(rigor_store_require_current(f->s, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "newer"));
}

static void test_import_twice_adds_nothing(void **state) {
  fixture_t *f = *state;
  migrated(f);
  char path[600], err[2048] = "";
  path_in(f, "r.jsonl", path, sizeof path);
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.runs = 2;
  spec.cycles = 3;
  size_t lines = hx_write(path, &spec);
  rigor_store_import_opts_t o = {.dirty = -1};
  rigor_store_import_result_t r;
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  assert_true(r.import_id > 0);
  assert_int_equal(r.experiments_added, 1);
  assert_int_equal(r.runs_added, 2);
  assert_int_equal(r.samples_added, 6);
  assert_int_equal(r.runs_present, 0);
  assert_int_equal(n_records(f), lines);
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  assert_int_equal(r.import_id, 0);
  assert_int_equal(r.experiments_added + r.runs_added + r.samples_added, 0);
  assert_int_equal(r.runs_present, 2);
  assert_int_equal(n_imports(f), 1);
  assert_int_equal(n_records(f), lines);
  /* The export is the file, record for record, in its order. */
  char out[600];
  path_in(f, "export.jsonl", out, sizeof out);
  FILE *fp = fopen(out, "w");
  rigor_store_filter_t none = {0};
  assert_int_equal(rigor_store_export(f->s, &none, fp, err, sizeof err), 0);
  fclose(fp);
  json_t *a = NULL, *b = NULL;
  bool cut = false;
  assert_int_equal(rigor_results_load(path, &a, &cut, err, sizeof err), 0);
  assert_int_equal(rigor_results_load(out, &b, &cut, err, sizeof err), 0);
  assert_int_equal(json_array_size(b), lines);
  assert_true(json_equal(a, b));
  json_decref(a), json_decref(b);
}

static void test_import_metadata(void **state) {
  fixture_t *f = *state;
  migrated(f);
  char path[600], err[2048] = "";
  path_in(f, "m.jsonl", path, sizeof path);
  hx_spec_t spec;
  hx_defaults(&spec);
  hx_write(path, &spec);
  const char *tags[] = {"host=ci-7", "compiler=gcc 12"};
  rigor_store_import_opts_t o = {.commit = "0123456789abcdef0123456789abcdef01234567",
                                 .commit_date = "2024-03-04T05:06:07.000Z",
                                 .branch = "main",
                                 .dirty = 1,
                                 .tags = tags,
                                 .n_tags = 2};
  rigor_store_import_result_t r;
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  json_t *list = NULL;
  assert_int_equal(rigor_store_list(f->s, &list, err, sizeof err), 0);
  json_t *row = json_array_get(list, 0);
  assert_string_equal(json_string_value(json_object_get(row, "commit")), o.commit);
  assert_string_equal(json_string_value(json_object_get(row, "commit_date")), o.commit_date);
  assert_string_equal(json_string_value(json_object_get(row, "branch")), "main");
  assert_true(json_is_true(json_object_get(row, "dirty")));
  json_t *t = json_object_get(row, "tags");
  assert_string_equal(json_string_value(json_object_get(t, "host")), "ci-7");
  assert_string_equal(json_string_value(json_object_get(t, "compiler")), "gcc 12");
  assert_string_equal(json_string_value(json_array_get(json_object_get(row, "experiments"), 0)),
                      "hist");
  assert_int_equal(json_integer_value(json_object_get(row, "runs")), 3);
  assert_int_equal(json_integer_value(json_object_get(row, "samples")), 15);
  json_decref(list);
  /* A tag that is not KEY=VALUE is refused before anything is written. */
  const char *bad[] = {"novalue"};
  o.tags = bad, o.n_tags = 1;
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), RIGOR_EINVAL);
  assert_non_null(strstr(err, "'novalue' is not KEY=VALUE"));
}

/* A bad file of any kind: refused with file:line:col, and nothing of it in the store. */
static void refused(fixture_t *f, const char *path, const char *where, const char *what) {
  char err[2048] = "";
  rigor_store_import_opts_t o = {.dirty = -1};
  rigor_store_import_result_t r;
  size_t before = n_records(f), imports = n_imports(f);
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), RIGOR_EINVAL);
  char expect[800];
  snprintf(expect, sizeof expect, "%s:%s", path, where);
  if (strncmp(err, expect, strlen(expect)) != 0)
    fail_msg("expected '%s...', got '%s'", expect, err);
  assert_non_null(strstr(err, what));
  assert_non_null(strstr(err, "nothing was stored"));
  assert_int_equal(n_records(f), before);
  assert_int_equal(n_imports(f), imports);
}

/* Line `line` (from 1) of the file replaced by text. */
static void rewrite_line(const char *path, size_t line, const char *text) {
  char *all = hx_slurp(path);
  FILE *fp = fopen(path, "w");
  size_t k = 1;
  for (char *p = all, *nl; *p && (nl = strchr(p, '\n')); p = nl + 1, k++)
    fprintf(fp, "%.*s\n", k == line ? (int)strlen(text) : (int)(nl - p), k == line ? text : p);
  fclose(fp);
  free(all);
}

/* The last line cut to its first `keep` characters, without its newline: a killed writer. */
static void cut_last_line(const char *path, size_t keep) {
  char *all = hx_slurp(path);
  size_t n = strlen(all) - 1; /* the final newline */
  size_t start = n;
  while (start > 0 && all[start - 1] != '\n')
    start--;
  FILE *fp = fopen(path, "w");
  fprintf(fp, "%.*s%.*s", (int)start, all, (int)keep, all + start);
  fclose(fp);
  free(all);
}

static void test_malformed_files_refused(void **state) {
  fixture_t *f = *state;
  migrated(f);
  char path[600], err[2048] = "";
  hx_spec_t spec;
  hx_defaults(&spec);
  /* One good import first, so "nothing stored" means nothing more. */
  path_in(f, "good.jsonl", path, sizeof path);
  hx_write(path, &spec);
  rigor_store_import_opts_t o = {.dirty = -1};
  rigor_store_import_result_t r;
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  spec.created = "2024-01-02T00:00:00.000Z";

  path_in(f, "json.jsonl", path, sizeof path);
  hx_write(path, &spec);
  rewrite_line(path, 9, "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",");
  refused(f, path, "9:", "");

  path_in(f, "cut.jsonl", path, sizeof path);
  size_t lines = hx_write(path, &spec);
  cut_last_line(path, 40);
  char where[32];
  snprintf(where, sizeof where, "%zu:41:", lines);
  refused(f, path, where, "the last line is cut short");

  path_in(f, "nocycle.jsonl", path, sizeof path);
  hx_write(path, &spec);
  rewrite_line(path, 14,
               "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"hist\","
               "\"run\":2,\"attempt\":1,\"point\":0,\"status\":\"ok\",\"time_s\":0.001}");
  refused(f, path, "14:1:", "without integer \"cycle\" and \"point\"");

  path_in(f, "orphan.jsonl", path, sizeof path);
  hx_write(path, &spec);
  rewrite_line(path, 1,
               "{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"other\","
               "\"name\":\"other\",\"hash\":\"ff\"}");
  refused(f, path, "7:1:", "no experiment record");
}

static void test_incremental_and_orphans(void **state) {
  fixture_t *f = *state;
  migrated(f);
  char path[600], err[2048] = "";
  hx_spec_t spec;
  hx_defaults(&spec);
  /* The first run of the execution: the file as it stood when that run ended. */
  path_in(f, "one.jsonl", path, sizeof path);
  hx_write(path, &spec);
  char *all = hx_slurp(path), *p = all;
  for (int line = 0; line < 7; line++)
    p = strchr(p, '\n') + 1;
  *p = '\0';
  FILE *fp = fopen(path, "w");
  fputs(all, fp);
  fclose(fp);
  free(all);
  rigor_store_import_opts_t o = {.commit = "c1", .dirty = -1};
  rigor_store_import_result_t r;
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  assert_int_equal(r.runs_added, 1);
  /* The same execution, finished: only the new runs go in, and samples of an attempt that has
   * no run record stay out. */
  spec.orphan_attempt = true;
  path_in(f, "three.jsonl", path, sizeof path);
  hx_write(path, &spec);
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  assert_int_equal(r.experiments_added, 0);
  assert_int_equal(r.runs_present, 1);
  assert_int_equal(r.runs_added, 2);
  assert_int_equal(r.samples_added, 10);
  assert_int_equal(r.samples_unstored, 5);
  assert_int_equal(n_records(f), 1 + 3 * 6);
}

static void test_points_in_commit_order(void **state) {
  fixture_t *f = *state;
  migrated(f);
  char path[600], err[2048] = "";
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.runs = 1;
  const char *commits[] = {"bbbb", "aaaa", "cccc", "aaaa"};
  const char *dates[] = {"2024-02-01T00:00:00.000Z", "2024-01-01T00:00:00.000Z",
                         "2024-03-01T00:00:00.000Z", "2024-01-01T00:00:00.000Z"};
  char created[4][40];
  for (int i = 0; i < 4; i++) {
    snprintf(created[i], sizeof created[i], "2024-05-0%dT00:00:00.000Z", i + 1);
    spec.created = created[i];
    spec.seed = (uint64_t)i + 1;
    char name[32];
    snprintf(name, sizeof name, "p%d.jsonl", i);
    path_in(f, name, path, sizeof path);
    hx_write(path, &spec);
    rigor_store_import_opts_t o = {.commit = commits[i], .commit_date = dates[i], .dirty = 0};
    rigor_store_import_result_t r;
    assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
    assert_int_equal(r.runs_added, 1);
  }
  /* One without a commit: it sorts by its import time, after the dated commits. */
  spec.created = "2024-06-01T00:00:00.000Z";
  path_in(f, "nocommit.jsonl", path, sizeof path);
  hx_write(path, &spec);
  rigor_store_import_opts_t none = {.dirty = -1};
  rigor_store_import_result_t r;
  assert_int_equal(rigor_store_import(f->s, path, &none, &r, err, sizeof err), 0);
  rigor_store_point_t *pts = NULL;
  size_t n = 0;
  assert_int_equal(rigor_store_points(f->s, &pts, &n, err, sizeof err), 0);
  assert_int_equal(n, 4);
  assert_string_equal(pts[0].commit, "aaaa");
  assert_string_equal(pts[1].commit, "bbbb");
  assert_string_equal(pts[2].commit, "cccc");
  assert_null(pts[3].commit);
  assert_int_equal(pts[3].first_import, r.import_id);
  /* Both imports of aaaa are one point with both runs. */
  rigor_store_filter_t fa = rigor_store_point_filter(&pts[0]);
  json_t *recs = NULL;
  assert_int_equal(rigor_store_records(f->s, &fa, &recs, err, sizeof err), 0);
  size_t runs = 0, i;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    runs += strcmp(json_string_value(json_object_get(rec, "type")), "run") == 0;
  }
  assert_int_equal(runs, 2);
  json_decref(recs);
  rigor_store_points_free(pts, n);
}

static void test_url_redacted(void **state) {
  (void)state;
  char out[256];
  rigor_store_url_redact("postgresql://bob:s3cret@db.example/rigor", out, sizeof out);
  assert_string_equal(out, "postgresql://bob:***@db.example/rigor");
  rigor_store_url_redact("postgresql:///rigor?host=/run&password=pw&user=u", out, sizeof out);
  assert_string_equal(out, "postgresql:///rigor?host=/run&password=***&user=u");
  rigor_store_url_redact("postgresql://bob@db/rigor", out, sizeof out);
  assert_string_equal(out, "postgresql://bob@db/rigor");
  rigor_store_url_redact("results/rigor.db", out, sizeof out);
  assert_string_equal(out, "results/rigor.db");
}

/* Imports the file spec describes at commit; returns the runs it added. */
static size_t import_at(fixture_t *f, const hx_spec_t *spec, const char *file, const char *commit) {
  char path[600], err[2048] = "";
  path_in(f, file, path, sizeof path);
  hx_write(path, spec);
  rigor_store_import_opts_t o = {.commit = commit, .dirty = -1};
  rigor_store_import_result_t r;
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  return r.runs_added;
}

/* Exports everything and reads the export as rigor report does; returns the analysis. */
static rigor_analysis_t *export_and_read(fixture_t *f, const char *file) {
  char out[600], err[2048] = "";
  path_in(f, file, out, sizeof out);
  FILE *fp = fopen(out, "w");
  assert_non_null(fp);
  rigor_store_filter_t none = {0};
  assert_int_equal(rigor_store_export(f->s, &none, fp, err, sizeof err), 0);
  fclose(fp);
  const char *paths[] = {out};
  rigor_analysis_t *a = NULL;
  int rc = rigor_analysis_load(paths, 1, &a, err, sizeof err);
  if (rc) fprintf(stderr, "%s\n", err);
  assert_int_equal(rc, 0);
  /* And the command itself, which says so when it counts runs held twice. */
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' report '%s' >'%s.txt' 2>&1", RIGOR_EXE, out, out);
  int st = system(cmd);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  snprintf(cmd, sizeof cmd, "%s.txt", out);
  char *text = hx_slurp(cmd);
  assert_null(strstr(text, "twice"));
  free(text);
  return a;
}

static const rigor_exp_analysis_t *exp_named(const rigor_analysis_t *a, const char *name) {
  for (size_t i = 0; i < a->n_exps; i++)
    if (strcmp(a->exps[i].name, name) == 0) return &a->exps[i];
  fail_msg("no experiment '%s' in the export", name);
  return NULL;
}

/* One experiment record, runs at two commits (the same run numbers, other samples): the export
 * keeps each commit's runs, none read as held twice. */
static void test_export_keeps_commits_apart(void **state) {
  fixture_t *f = *state;
  migrated(f);
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.runs = 2;
  spec.cycles = 3;
  assert_int_equal(import_at(f, &spec, "c1.jsonl", "1111111111111111aaaa"), 2);
  spec.seed = 2;
  assert_int_equal(import_at(f, &spec, "c2.jsonl", "2222222222222222bbbb"), 2);
  rigor_analysis_t *a = export_and_read(f, "export.jsonl");
  assert_int_equal(a->n_exps, 2);
  const rigor_exp_analysis_t *one = exp_named(a, "hist@111111111111");
  const rigor_exp_analysis_t *two = exp_named(a, "hist@222222222222");
  assert_int_equal(one->n_runs, 2);
  assert_int_equal(two->n_runs, 2);
  assert_int_equal(one->duplicate_records + two->duplicate_records, 0);
  assert_int_equal(one->ignored_samples + two->ignored_samples, 0);
  rigor_analysis_free(a);
}

/* The configuration changed between two commits: two experiments, each readable. An experiment
 * stored at one commit only keeps its name. */
static void test_export_config_change(void **state) {
  fixture_t *f = *state;
  migrated(f);
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.runs = 2;
  spec.cycles = 3;
  assert_int_equal(import_at(f, &spec, "old.jsonl", "c0ffee0000000000"), 2);
  spec.hash = "ffffeeeeddddcccc";
  spec.created = "2024-02-01T00:00:00.000Z";
  spec.seed = 5;
  assert_int_equal(import_at(f, &spec, "new.jsonl", "decaf00000000000"), 2);
  hx_spec_t other;
  hx_defaults(&other);
  other.name = "alone";
  other.runs = 2;
  other.cycles = 2;
  assert_int_equal(import_at(f, &other, "alone.jsonl", "decaf00000000000"), 2);
  rigor_analysis_t *a = export_and_read(f, "export.jsonl");
  assert_int_equal(a->n_exps, 3);
  const rigor_exp_analysis_t *old = exp_named(a, "hist@c0ffee000000");
  const rigor_exp_analysis_t *cur = exp_named(a, "hist@decaf0000000");
  assert_int_equal(old->n_runs, 2);
  assert_int_equal(cur->n_runs, 2);
  assert_string_equal(json_string_value(json_object_get(old->record, "hash")), "a1b2c3d4e5f6");
  assert_string_equal(json_string_value(json_object_get(cur->record, "hash")), "ffffeeeeddddcccc");
  assert_int_equal(exp_named(a, "alone")->n_runs, 2);
  rigor_analysis_free(a);
  /* Two configurations at one commit: kept apart by their stored record's number. */
  spec.hash = "9999888877776666";
  spec.created = "2024-03-01T00:00:00.000Z";
  assert_int_equal(import_at(f, &spec, "third.jsonl", "decaf00000000000"), 2);
  a = export_and_read(f, "export2.jsonl");
  assert_int_equal(a->n_exps, 4);
  size_t at_decaf = 0;
  for (size_t i = 0; i < a->n_exps; i++) {
    if (strncmp(a->exps[i].name, "hist@decaf0000000-e", 19) == 0) at_decaf++;
    assert_int_equal(a->exps[i].duplicate_records, 0);
  }
  assert_int_equal(at_decaf, 2);
  rigor_analysis_free(a);
}

/* The samples of two runs interleaved line by line, in more rows than one statement holds: each
 * run keeps its samples in file order, and importing again adds nothing. */
static void test_interleaved_runs(void **state) {
  fixture_t *f = *state;
  migrated(f);
  char path[600], err[2048] = "";
  path_in(f, "r.jsonl", path, sizeof path);
  hx_spec_t spec;
  hx_defaults(&spec);
  spec.runs = 2;
  spec.cycles = 100;
  hx_write(path, &spec);
  json_t *lines = NULL;
  bool cut = false;
  assert_int_equal(rigor_results_load(path, &lines, &cut, err, sizeof err), 0);
  assert_int_equal(json_array_size(lines), 1 + 2 * 101);
  FILE *fp = fopen(path, "w");
  char *text = json_dumps(json_array_get(lines, 0), JSON_COMPACT);
  fprintf(fp, "%s\n", text);
  free(text);
  for (size_t c = 0; c < 100; c++)
    for (size_t r = 0; r < 2; r++) {
      text = json_dumps(json_array_get(lines, 1 + r * 101 + c), JSON_COMPACT);
      fprintf(fp, "%s\n", text);
      free(text);
    }
  for (size_t r = 0; r < 2; r++) {
    text = json_dumps(json_array_get(lines, 1 + r * 101 + 100), JSON_COMPACT);
    fprintf(fp, "%s\n", text);
    free(text);
  }
  fclose(fp);
  rigor_store_import_opts_t o = {.dirty = -1};
  rigor_store_import_result_t r;
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  assert_int_equal(r.runs_added, 2);
  assert_int_equal(r.samples_added, 200);
  assert_int_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  assert_int_equal(r.runs_added + r.samples_added, 0);
  assert_int_equal(r.runs_present, 2);
  /* Exported per run, the samples in their order: the file as hx_write wrote it. */
  json_t *all = NULL;
  rigor_store_filter_t none = {0};
  assert_int_equal(rigor_store_records(f->s, &none, &all, err, sizeof err), 0);
  assert_true(json_equal(all, lines));
  json_decref(all);
  json_decref(lines);
}

/* Where a file has a record the store refuses and, further on, a line that is no JSON, the
 * malformed line is what is said, as when the file was read whole. */
static void test_first_fault_worded(void **state) {
  fixture_t *f = *state;
  migrated(f);
  char path[600], err[2048] = "";
  path_in(f, "bad.jsonl", path, sizeof path);
  FILE *fp = fopen(path, "w");
  fputs("{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"x\"}\n", fp);
  fputs("{\"schema\":\"rigor.result/1\",\"type\":\"run\",\"experiment\":\"x\",\"run\":0,"
        "\"attempt\":1,\"status\":\"ok\"}\n",
        fp);
  fputs("{nope\n\n", fp);
  fclose(fp);
  rigor_store_import_opts_t o = {.dirty = -1};
  rigor_store_import_result_t r;
  assert_int_not_equal(rigor_store_import(f->s, path, &o, &r, err, sizeof err), 0);
  assert_non_null(strstr(err, ":3:"));
  assert_non_null(strstr(err, "nothing was stored"));
  assert_int_equal(n_imports(f), 0);
}

int main(int argc, char **argv) {
  backend = hx_backend_from_args(argc, argv);
  printf("store backend: %s\n", hx_backend_name(backend));
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_migrations_from_empty, setup, teardown),
      cmocka_unit_test_setup_teardown(test_newer_store_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(test_import_twice_adds_nothing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_import_metadata, setup, teardown),
      cmocka_unit_test_setup_teardown(test_malformed_files_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(test_incremental_and_orphans, setup, teardown),
      cmocka_unit_test_setup_teardown(test_points_in_commit_order, setup, teardown),
      cmocka_unit_test_setup_teardown(test_export_keeps_commits_apart, setup, teardown),
      cmocka_unit_test_setup_teardown(test_export_config_change, setup, teardown),
      cmocka_unit_test_setup_teardown(test_interleaved_runs, setup, teardown),
      cmocka_unit_test_setup_teardown(test_first_fault_worded, setup, teardown),
      cmocka_unit_test(test_url_redacted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
