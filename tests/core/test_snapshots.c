/* Plugin snapshots end to end: a build's .so rewritten in place while its experiment runs
 * changes nothing (rigor and its runs keep loading the copy taken at the start); --resume
 * refuses a plugin rebuilt since the results file began, naming both hashes, and goes on with
 * --allow-rebuilt, recording both; the snapshot folder is removed at the end, and one a killed
 * rigor left behind is removed by the next. */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "digest.h"
#include "support.h"

static void copy(const char *from, const char *to) {
  FILE *src = fopen(from, "rb"), *dst = fopen(to, "wb");
  assert_non_null(src);
  assert_non_null(dst);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, src)) > 0)
    fwrite(buf, 1, n, dst);
  fclose(src), fclose(dst);
}

/* DIR/NAME holding a copy of `so` as FILE. */
static char *folder_with(const char *name, const char *so, const char *file) {
  char *folder = path_join(scratch, name);
  mkdir(folder, 0755);
  char *to = path_join(folder, file);
  copy(so, to);
  free(to);
  return folder;
}

/* Overwrites every byte of `path` with zeros, in place: the same inode, as a linker that
 * writes into its output file does. */
static void zero_in_place(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  int fd = open(path, O_WRONLY);
  assert_true(fd >= 0);
  char zeros[4096] = {0};
  for (off_t done = 0; done < st.st_size;) {
    size_t n = st.st_size - done < (off_t)sizeof zeros ? (size_t)(st.st_size - done) : sizeof zeros;
    ssize_t w = write(fd, zeros, n);
    assert_true(w > 0);
    done += w;
  }
  close(fd);
}

static void rewritten_during_run(const char *name, const char *environment) {
  char *folder = folder_with(name, RIGOR_TEST_PLUGIN_DIR "/fault.so", "fault.so");
  char *so = path_join(folder, "fault.so");
  char sha[65];
  assert_int_equal(rigor_file_sha256(so, sha), 0);
  char yaml[1024], file[64], results[64];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: rewrite\nplugin: fault\n"
           "matrix:\n  build:\n    - {label: only, plugin_path: %s}\n"
           "params: {mode: slow, sleep_us: 20000}\n"
           "timing: {warmup: 0, cycles: 4, iters: 2}\n"
           "order: {design: sequential, replicates: 4}\n%s"
           "output: %s.jsonl\n",
           name, environment, name);
  snprintf(file, sizeof file, "%s.yaml", name);
  snprintf(results, sizeof results, "%s.jsonl", name);
  char *cfg = config_in(scratch, file, yaml);
  char *out = path_join(scratch, results);
  const char *args[] = {"run", cfg, "--quiet", NULL};
  pid_t pid = rigor_start(scratch, args);
  assert_true(wait_for_runs(out, 1) >= 1);
  zero_in_place(so);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  /* rigor itself is never brought down by a file on disk, and its runs load the snapshot. */
  assert_false(WIFSIGNALED(status));
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 4);
  json_t *exp = json_array_get(recs, 0);
  json_t *build = json_array_get(json_object_get(exp, "builds"), 0);
  assert_string_equal(json_string_value(json_object_get(build, "sha256")), sha);
  assert_string_equal(json_string_value(json_object_get(build, "file")), so);
  json_decref(recs);
  free(out), free(cfg), free(so), free(folder);
}

static void test_rewrite_in_place_during_forked_runs(void **st) {
  (void)st;
  rewritten_during_run("forked", "");
}

/* A run started as a new program (a padded environment) loads the snapshot too. */
static void test_rewrite_in_place_during_spawned_runs(void **st) {
  (void)st;
  rewritten_during_run("spawned", "environment: {randomize_env: true}\n");
}

/* Keeps the results file's lines up to and including its first run record: a file whose other
 * runs are left for --resume. */
static void keep_first_run(const char *path) {
  char *text = read_file(path);
  char *run = strstr(text, "\"type\": \"run\"");
  if (!run) run = strstr(text, "\"type\":\"run\"");
  assert_non_null(run);
  char *end = strchr(run, '\n');
  assert_non_null(end);
  FILE *f = fopen(path, "wb");
  fwrite(text, 1, (size_t)(end + 1 - text), f);
  fclose(f);
  free(text);
}

static void test_resume_refuses_a_rebuilt_build(void **st) {
  (void)st;
  char *folder = folder_with("b", RIGOR_PLUGIN_DIR "/null.so", "null.so");
  char *so = path_join(folder, "null.so");
  char before[65], after[65];
  assert_int_equal(rigor_file_sha256(so, before), 0);
  char *cfg = config_in(scratch, "rb.yaml",
                        "schema: 1\nname: rb\nplugin: \"null\"\n"
                        "matrix:\n  build:\n    - {label: cand, plugin_path: b}\n"
                        "timing: {warmup: 1, cycles: 2, iters: 10}\n"
                        "order: {design: sequential, replicates: 3}\noutput: rb.jsonl\n");
  const char *args[] = {"run", cfg, "--quiet", NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  char *out = path_join(scratch, "rb.jsonl");
  keep_first_run(out);
  char *kept = read_file(out);

  /* Rebuilt: another build of the plugin in its place. */
  unlink(so);
  copy(RIGOR_TEST_PLUGIN_DIR "/builds/v2/null.so", so);
  assert_int_equal(rigor_file_sha256(so, after), 0);
  const char *resume[] = {"run", cfg, "--quiet", "--resume", NULL};
  r = rigor_exec(scratch, resume);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, before));
  assert_non_null(strstr(r.err, after));
  assert_non_null(strstr(r.err, "build 'cand'"));
  assert_non_null(strstr(r.err, "--allow-rebuilt"));
  cmd_result_free(&r);
  char *untouched = read_file(out);
  assert_string_equal(untouched, kept);
  free(untouched), free(kept);

  /* Knowingly: the runs go on, and each new run record names both hashes. */
  const char *allow[] = {"run", cfg, "--quiet", "--resume", "--allow-rebuilt", NULL};
  r = rigor_exec(scratch, allow);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  json_t *recs = results_read(out);
  assert_int_equal(results_count(recs, "run", "status", "ok"), 3);
  size_t i, marked = 0;
  json_t *rec;
  json_array_foreach(recs, i, rec) {
    json_t *rebuilt = json_object_get(rec, "rebuilt");
    if (!rebuilt) continue;
    json_t *entry = json_array_get(rebuilt, 0);
    assert_string_equal(json_string_value(json_object_get(entry, "build")), "cand");
    assert_string_equal(json_string_value(json_object_get(entry, "recorded")), before);
    assert_string_equal(json_string_value(json_object_get(entry, "now")), after);
    marked++;
  }
  assert_int_equal(marked, 2);
  json_decref(recs);
  free(out), free(cfg), free(so), free(folder);
}

/* Without a build axis: the plugin found on the plugin path. */
static void test_resume_refuses_a_rebuilt_plugin(void **st) {
  (void)st;
  char *folder = folder_with("p", RIGOR_PLUGIN_DIR "/null.so", "null.so");
  char *so = path_join(folder, "null.so");
  char before[65], after[65];
  assert_int_equal(rigor_file_sha256(so, before), 0);
  char *cfg = config_in(scratch, "rp.yaml",
                        "schema: 1\nname: rp\nplugin: \"null\"\n"
                        "timing: {warmup: 1, cycles: 2, iters: 10}\n"
                        "order: {design: sequential, replicates: 3}\noutput: rp.jsonl\n");
  const char *args[] = {"run", cfg, "--quiet", "--plugin-path", folder, NULL};
  cmd_result_t r = rigor_exec(scratch, args);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  char *out = path_join(scratch, "rp.jsonl");
  keep_first_run(out);
  unlink(so);
  copy(RIGOR_TEST_PLUGIN_DIR "/builds/v2/null.so", so);
  assert_int_equal(rigor_file_sha256(so, after), 0);
  const char *resume[] = {"run", cfg, "--quiet", "--resume", "--plugin-path", folder, NULL};
  r = rigor_exec(scratch, resume);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, before));
  assert_non_null(strstr(r.err, after));
  cmd_result_free(&r);
  /* The same bytes again: the resume goes on. */
  unlink(so);
  copy(RIGOR_PLUGIN_DIR "/null.so", so);
  r = rigor_exec(scratch, resume);
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  free(out), free(cfg), free(so), free(folder);
}

static size_t snapshot_folders(const char *root) {
  DIR *d = opendir(root);
  assert_non_null(d);
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += strncmp(e->d_name, "rigor-snap-", 11) == 0;
  closedir(d);
  return n;
}

static void test_snapshot_removed_and_stale_ones_swept(void **st) {
  (void)st;
  char *tmp = path_join(scratch, "tmp");
  mkdir(tmp, 0700);
  /* A folder of a rigor that is gone: its pid is a child that has exited and been reaped. */
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  waitpid(gone, NULL, 0);
  char stale[512], inner[600];
  snprintf(stale, sizeof stale, "%s/rigor-snap-%d-AbC123", tmp, (int)gone);
  mkdir(stale, 0700);
  snprintf(inner, sizeof inner, "%s/0", stale);
  mkdir(inner, 0700);
  snprintf(inner, sizeof inner, "%s/0/null.so", stale);
  copy(RIGOR_PLUGIN_DIR "/null.so", inner);
  chmod(inner, 0400);
  assert_int_equal(snapshot_folders(tmp), 1);
  char *cfg = config_in(scratch, "sw.yaml",
                        "schema: 1\nname: sw\nplugin: \"null\"\n"
                        "timing: {warmup: 1, cycles: 2, iters: 10}\noutput: sw.jsonl\n");
  const char *args[] = {"run", cfg, "--quiet", NULL};
  setenv("TMPDIR", tmp, 1);
  cmd_result_t r = rigor_exec(scratch, args);
  unsetenv("TMPDIR");
  assert_int_equal(r.exit_code, 0);
  cmd_result_free(&r);
  assert_int_equal(snapshot_folders(tmp), 0);
  free(cfg), free(tmp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_rewrite_in_place_during_forked_runs, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_rewrite_in_place_during_spawned_runs, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_resume_refuses_a_rebuilt_build, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_resume_refuses_a_rebuilt_plugin, scratch_setup,
                                      scratch_teardown),
      cmocka_unit_test_setup_teardown(test_snapshot_removed_and_stale_ones_swept, scratch_setup,
                                      scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
