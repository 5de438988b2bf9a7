/* rigor run --slurm against the two-node test cluster: one batch job whose blocks run as job
 * steps, each block whole on one node and both nodes busy; every run reaches the one results
 * file once; a job cancelled half way is finished by --resume with the same schedule, nothing
 * lost or repeated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

/* Every run of the schedule exactly once with status ok, its samples those of its attempt
 * (`cycles` of them), each block on one node; returns how many nodes the blocks used. */
static size_t check_complete(const char *file, size_t n_runs, size_t per_block, size_t cycles) {
  json_t *runs = sl_records(file, "run"), *samples = sl_records(file, "sample");
  json_t *experiments = sl_records(file, "experiment");
  assert_int_equal(json_array_size(experiments), 1);
  json_t *blocks =
      json_object_get(json_object_get(json_array_get(experiments, 0), "schedule"), "blocks");
  assert_int_equal(json_array_size(runs), n_runs);
  json_t **by_run = calloc(n_runs, sizeof *by_run);
  char node_of_block[64][32] = {{0}};
  const char *nodes_seen[8] = {0};
  size_t n_nodes = 0, i;
  json_t *run;
  json_array_foreach(runs, i, run) {
    json_int_t k = json_integer_value(json_object_get(run, "run"));
    assert_true(k >= 0 && (size_t)k < n_runs);
    if (by_run[k]) fail_msg("run %lld is recorded twice", (long long)k);
    by_run[k] = run;
    assert_string_equal(json_string_value(json_object_get(run, "status")), "ok");
    /* The schedule's own block and variant for this run. */
    json_int_t b = json_integer_value(json_object_get(run, "block"));
    assert_int_equal(b, k / (json_int_t)per_block);
    json_t *row = json_array_get(blocks, (size_t)b);
    json_t *cell = json_is_array(row) ? row : json_object_get(row, "order");
    assert_int_equal(json_integer_value(json_array_get(cell, (size_t)(k % (json_int_t)per_block))),
                     json_integer_value(json_object_get(run, "variant")));
    const char *node = json_string_value(json_object_get(json_object_get(run, "slurm"), "node"));
    assert_non_null(node);
    if (!node_of_block[b][0])
      snprintf(node_of_block[b], sizeof node_of_block[b], "%s", node);
    else if (strcmp(node_of_block[b], node) != 0)
      fail_msg("block %lld ran on %s and on %s", (long long)b, node_of_block[b], node);
    bool seen = false;
    for (size_t j = 0; j < n_nodes; j++)
      seen = seen || strcmp(nodes_seen[j], node) == 0;
    if (!seen && n_nodes < 8) nodes_seen[n_nodes++] = node;
  }
  size_t *kept = calloc(n_runs, sizeof *kept);
  json_t *s;
  json_array_foreach(samples, i, s) {
    json_int_t k = json_integer_value(json_object_get(s, "run"));
    assert_true(k >= 0 && (size_t)k < n_runs && by_run[k]);
    if (json_integer_value(json_object_get(s, "attempt")) ==
        json_integer_value(json_object_get(by_run[k], "attempt")))
      kept[k]++;
  }
  for (size_t k = 0; k < n_runs; k++)
    if (kept[k] != cycles)
      fail_msg("run %zu has %zu samples of its attempt, not %zu", k, kept[k], cycles);
  free(kept);
  free(by_run);
  json_decref(runs), json_decref(samples), json_decref(experiments);
  return n_nodes;
}

/* Moves the records of runs from `first` on out of a results file into a part of their own
 * (headed by the experiment record, as a step writes it). */
/* The Slurm job that ran run k (a static buffer). */
static const char *job_of_run(const char *file, json_int_t k) {
  static char job[64];
  json_t *runs = sl_records(file, "run");
  size_t i;
  json_t *run;
  job[0] = '\0';
  json_array_foreach(runs, i, run) {
    if (json_integer_value(json_object_get(run, "run")) != k) continue;
    const char *id = json_string_value(json_object_get(json_object_get(run, "slurm"), "job_id"));
    snprintf(job, sizeof job, "%s", id ? id : "");
  }
  json_decref(runs);
  assert_true(job[0]);
  return job;
}

static void split_last_block(const char *file, json_int_t first, const char *part) {
  assert_int_equal(sl_sh("mkdir -p \"$(dirname %s)\"", part), 0);
  char *text = sl_read(file);
  char keep_path[2048], part_path[2048];
  snprintf(keep_path, sizeof keep_path, "%s", sl_path(file));
  snprintf(part_path, sizeof part_path, "%s", sl_path(part));
  FILE *keep = fopen(keep_path, "w"), *moved = fopen(part_path, "w");
  assert_non_null(keep);
  assert_non_null(moved);
  for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    json_t *rec = json_loads(line, 0, NULL);
    const char *type = json_string_value(json_object_get(rec, "type"));
    json_int_t k = json_integer_value(json_object_get(rec, "run"));
    bool experiment = type && strcmp(type, "experiment") == 0;
    bool late = type && (!strcmp(type, "run") || !strcmp(type, "sample")) && k >= first;
    if (!late) fprintf(keep, "%s\n", line);
    if (experiment || late) fprintf(moved, "%s\n", line);
    json_decref(rec);
  }
  fclose(keep);
  fclose(moved);
  free(text);
}

static void blocks_run_whole_on_each_node(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("campaign");
  sl_write("c.yaml", "schema: 1\n"
                     "name: camp\n"
                     "plugin: null\n"
                     "params: {spin_ns: 20000}\n"
                     "timing: {warmup: 0, cycles: 3, iters: 10}\n"
                     "matrix: {bytes: [1KiB, 2KiB, 4KiB]}\n"
                     "order: {design: williams, replicates: 4, seed: 3}\n"
                     "output: c.jsonl\n"
                     "executor: {slurm: {nodes: 2, time: 10m}}\n");
  sl_result_t r = sl_rigor("run c.yaml --slurm --no-report");
  if (r.rc != 0) fail_msg("rigor run --slurm: %d\n%s%s", r.rc, r.out, r.err);
  SL_HAS(r.err, "submitted Slurm job");
  sl_result_free(&r);
  assert_int_equal(check_complete("c.jsonl", 12, 3, 3), 2);
  /* The report shows each variant per node. */
  r = sl_rigor("report c.jsonl --table nodes");
  assert_int_equal(r.rc, 0);
  SL_HAS(r.out, "per node");
  sl_result_free(&r);
  /* The steps' own files are gone once merged. */
  assert_int_not_equal(sl_sh("test -e c.jsonl.steps"), 0);
  /* Finished: a resume has nothing left to run and adds nothing. */
  char *before = sl_read("c.jsonl");
  r = sl_rigor("run c.yaml --slurm --resume --no-report");
  assert_int_equal(r.rc, 0);
  sl_result_free(&r);
  char *after = sl_read("c.jsonl");
  assert_string_equal(before, after);
  free(before), free(after);
  /* A step's part left by a driver that died before merging it: the next driver merges it
   * first and runs none of its runs again. The last block's records move to a part. */
  char job_before[64];
  snprintf(job_before, sizeof job_before, "%s", job_of_run("c.jsonl", 9));
  split_last_block("c.jsonl", 9, "c.jsonl.steps/camp.b3.jsonl");
  r = sl_rigor("run c.yaml --slurm --resume --no-report");
  if (r.rc != 0) fail_msg("rigor run --slurm --resume: %d\n%s%s", r.rc, r.out, r.err);
  sl_result_free(&r);
  assert_int_equal(check_complete("c.jsonl", 12, 3, 3), 2);
  assert_int_equal(sl_sh("cat c.jsonl.slurm-*.log >all.log"), 0);
  char *log = sl_read("all.log");
  SL_HAS(log, "3 finished runs of a step recovered");
  free(log);
  /* Recovered, not run again: run 9 is still the first job's. */
  assert_string_equal(job_of_run("c.jsonl", 9), job_before);
  /* A command the user did not allow is refused before anything is submitted. */
  sl_write("cmd.yaml", "schema: 1\nname: cmd\nplugin: exec\nparams: {command: [true]}\n"
                       "output: cmd.jsonl\n");
  r = sl_rigor("run cmd.yaml --slurm --nodes 1");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "nothing was submitted: rerun with --allow-commands");
  assert_null(strstr(r.err, "submitted Slurm job"));
  sl_result_free(&r);
  /* The flags override the file's executor; the file refuses what it does not know. */
  sl_write("bad.yaml", "schema: 1\nname: bad\nplugin: null\noutput: bad.jsonl\n"
                       "executor: {slurm: {nodes: 2, partitoin: debug}}\n");
  r = sl_rigor("validate bad.yaml");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "bad.yaml:5:");
  SL_HAS(r.err, "partitoin");
  sl_result_free(&r);
}

static void a_cancelled_campaign_resumes(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("campaign-resume");
  /* Eight blocks of two runs of about 0.3 s each. */
  sl_write("k.yaml", "schema: 1\n"
                     "name: killme\n"
                     "plugin: null\n"
                     "params: {spin_ns: 100000000}\n"
                     "timing: {warmup: 0, cycles: 3, iters: 1}\n"
                     "matrix: {bytes: [1KiB, 2KiB]}\n"
                     "order: {design: mirrored, replicates: 8}\n"
                     "output: k.jsonl\n");
  assert_int_equal(sl_sh("('%s' run k.yaml --slurm --nodes 2 --no-report; echo $? >rc.txt) "
                         "</dev/null >out.txt 2>err.txt &",
                         RIGOR_EXE),
                   0);
  /* Cancel the job once a few runs are in the file and more are under way. */
  sl_wait(120, "n=$(grep -c '\"type\":\"run\"' k.jsonl 2>/dev/null); [ \"${n:-0}\" -ge 4 ]");
  assert_int_equal(sl_sh("j=$(squeue -h -n rigor-killme -o %%i); [ -n \"$j\" ] && scancel $j"), 0);
  sl_wait(120, "test -s rc.txt");
  json_t *runs = sl_records("k.jsonl", "run");
  size_t first = json_array_size(runs);
  json_decref(runs);
  if (first >= 16) fail_msg("the job finished before it was cancelled");
  char *experiment_before = sl_read("k.jsonl");
  experiment_before[strcspn(experiment_before, "\n")] = '\0';

  sl_result_t r = sl_rigor("run k.yaml --slurm --nodes 2 --resume --no-report");
  if (r.rc != 0) fail_msg("rigor run --slurm --resume: %d\n%s%s", r.rc, r.out, r.err);
  sl_result_free(&r);
  assert_int_equal(check_complete("k.jsonl", 16, 2, 3), 2);
  /* The same experiment record, hence the same schedule, heads the file. */
  char *text = sl_read("k.jsonl");
  assert_memory_equal(text, experiment_before, strlen(experiment_before));
  free(text), free(experiment_before);
}

static void results_come_back_without_a_shared_folder(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  const char *private = sl_private_dir();
  if (!private) {
    printf("the test cluster's node n3 has no folder of its own (no mount namespaces here)\n");
    skip();
  }
  char dir[2048];
  snprintf(dir, sizeof dir, "%s", private);
  sl_scratch("campaign-apart");
  /* The results file lies where node n3 sees a different, empty folder: its steps' records
   * can only come back over srun. */
  char yaml[4096];
  snprintf(yaml, sizeof yaml,
           "schema: 1\n"
           "name: apart\n"
           "plugin: null\n"
           "params: {spin_ns: 20000}\n"
           "timing: {warmup: 0, cycles: 3, iters: 10}\n"
           "matrix: {bytes: [1KiB, 2KiB, 4KiB]}\n"
           "order: {design: williams, replicates: 6, seed: 5}\n"
           "output: %s/apart.jsonl\n",
           dir);
  sl_write("a.yaml", yaml);
  sl_result_t r = sl_rigor("run a.yaml --slurm --nodes 3 --force --no-report");
  if (r.rc != 0) fail_msg("rigor run --slurm: %d\n%s%s", r.rc, r.out, r.err);
  sl_result_free(&r);
  assert_int_equal(sl_sh("cp '%s/apart.jsonl' apart.jsonl && rm -rf '%s'/apart.*", dir, dir), 0);
  /* Every run once, and n3's among them. */
  assert_int_equal(check_complete("apart.jsonl", 18, 3, 3), 3);
}

/* The type of a results file's last record (a static buffer). */
static const char *last_type(const char *file) {
  static char type[64];
  char *text = sl_read(file);
  size_t len = strlen(text);
  while (len && text[len - 1] == '\n')
    text[--len] = '\0';
  char *line = strrchr(text, '\n');
  json_t *rec = json_loads(line ? line + 1 : text, 0, NULL);
  snprintf(type, sizeof type, "%s", json_string_value(json_object_get(rec, "type")) ?: "");
  json_decref(rec);
  free(text);
  return type;
}

static void adaptive_campaigns_stop(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("campaign-adaptive");
  /* A loose precision that four blocks reach: the driver judges as blocks end and stops. */
  sl_write("p.yaml", "schema: 1\n"
                     "name: precise\n"
                     "plugin: null\n"
                     "params: {spin_ns: 20000}\n"
                     "timing: {warmup: 0, cycles: 5, iters: 20}\n"
                     "matrix: {bytes: [1KiB, 2KiB]}\n"
                     "order: {design: mirrored, replicates: {min: 4, max: 40, precision: 50%}}\n"
                     "output: p.jsonl\n");
  sl_result_t r = sl_rigor("run p.yaml --slurm --nodes 2 --no-report");
  if (r.rc != 0) fail_msg("rigor run --slurm (precision): %d\n%s%s", r.rc, r.out, r.err);
  sl_result_free(&r);
  json_t *stops = sl_records("p.jsonl", "stop"), *runs = sl_records("p.jsonl", "run");
  assert_int_equal(json_array_size(stops), 1);
  json_t *stop = json_array_get(stops, 0);
  assert_string_equal(json_string_value(json_object_get(stop, "reason")), "precision");
  json_int_t blocks = json_integer_value(json_object_get(stop, "blocks"));
  size_t n_runs = json_array_size(runs);
  /* Stopped early; the blocks still running when it stopped finished and were kept whole. */
  assert_true(blocks >= 4 && n_runs < 80 && n_runs >= (size_t)blocks * 2);
  assert_int_equal(n_runs % 2, 0);
  check_complete("p.jsonl", n_runs, 2, 5);
  /* The stop record ends the experiment: a resume runs nothing more. */
  assert_string_equal(last_type("p.jsonl"), "stop");
  char *before = sl_read("p.jsonl");
  r = sl_rigor("run p.yaml --slurm --nodes 2 --resume --no-report");
  assert_int_equal(r.rc, 0);
  sl_result_free(&r);
  char *after = sl_read("p.jsonl");
  assert_string_equal(before, after);
  free(before), free(after);
  json_decref(stops), json_decref(runs);

  /* A deadline: no block starts once it has passed, and the file says why it stopped. */
  sl_write("d.yaml", "schema: 1\n"
                     "name: late\n"
                     "plugin: null\n"
                     "params: {spin_ns: 100000000}\n"
                     "timing: {warmup: 0, cycles: 3, iters: 1}\n"
                     "matrix: {bytes: [1KiB, 2KiB]}\n"
                     "order: {design: mirrored, replicates: 100}\n"
                     "deadline: 3s\n"
                     "environment: {telemetry: {raw: true, interval: 20ms}}\n"
                     "output: d.jsonl\n");
  r = sl_rigor("run d.yaml --slurm --nodes 2 --no-report");
  if (r.rc != 0) fail_msg("rigor run --slurm (deadline): %d\n%s%s", r.rc, r.out, r.err);
  sl_result_free(&r);
  stops = sl_records("d.jsonl", "stop"), runs = sl_records("d.jsonl", "run");
  assert_int_equal(json_array_size(stops), 1);
  assert_string_equal(json_string_value(json_object_get(json_array_get(stops, 0), "reason")),
                      "deadline");
  assert_true(json_array_size(runs) > 0 && json_array_size(runs) < 200);
  assert_string_equal(last_type("d.jsonl"), "stop");
  /* The steps' raw telemetry came back too, into the driver's sidecar, each line under the
   * run and attempt of a run the results file holds. */
  json_t *lines = sl_records("d.jsonl.telemetry.jsonl", "telemetry");
  assert_true(json_array_size(lines) > 0);
  size_t i, j;
  json_t *line, *run;
  json_array_foreach(lines, i, line) {
    bool found = false;
    json_array_foreach(runs, j, run) {
      found =
          found || (json_equal(json_object_get(run, "run"), json_object_get(line, "run")) &&
                    json_equal(json_object_get(run, "attempt"), json_object_get(line, "attempt")));
    }
    if (!found)
      fail_msg("a telemetry line of run %lld attempt %lld has no run record",
               (long long)json_integer_value(json_object_get(line, "run")),
               (long long)json_integer_value(json_object_get(line, "attempt")));
  }
  json_decref(lines);
  json_decref(stops), json_decref(runs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(blocks_run_whole_on_each_node),
      cmocka_unit_test(a_cancelled_campaign_resumes),
      cmocka_unit_test(results_come_back_without_a_shared_folder),
      cmocka_unit_test(adaptive_campaigns_stop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
