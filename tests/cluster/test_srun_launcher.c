/* srun as a launcher, against the two-node test cluster: one run is one Slurm job of two ranks
 * (MPI through PMIx), one on each node; its run record names the job, the step and the nodes,
 * and a job cancelled under a run makes the run `interrupted` with Slurm's state as the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support.h"

static const char two_ranks[] = "schema: 1\n"
                                "name: ranks\n"
                                "plugin: null\n"
                                "params: {spin_ns: 20000}\n"
                                "timing: {warmup: 0, cycles: 3, iters: 10, timeout: 120s}\n"
                                "launcher: [srun, --mpi=pmix, --nodes=2, --ntasks, \"{ranks}\"]\n"
                                "ranks: 2\n"
                                "order: {design: sequential, replicates: 2}\n"
                                "output: ranks.jsonl\n";

static void two_ranks_on_two_nodes(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("srun-launcher");
  sl_write("ranks.yaml", two_ranks);
  /* The launcher is a command: refused without --allow-commands. */
  sl_result_t r = sl_rigor("run ranks.yaml -q");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "--allow-commands");
  sl_result_free(&r);

  r = sl_rigor("run ranks.yaml -q --allow-commands");
  if (r.rc != 0) fail_msg("rigor run: %d\n%s%s", r.rc, r.out, r.err);
  sl_result_free(&r);
  json_t *runs = sl_records("ranks.jsonl", "run");
  assert_int_equal(json_array_size(runs), 2);
  size_t i;
  json_t *run;
  json_array_foreach(runs, i, run) {
    assert_string_equal(json_string_value(json_object_get(run, "status")), "ok");
    json_t *slurm = json_object_get(run, "slurm");
    assert_true(json_is_object(slurm));
    assert_non_null(json_string_value(json_object_get(slurm, "job_id")));
    assert_non_null(json_string_value(json_object_get(slurm, "step_id")));
    assert_non_null(json_string_value(json_object_get(slurm, "nodes")));
    assert_non_null(json_string_value(json_object_get(slurm, "node")));
    assert_int_equal(json_integer_value(json_object_get(slurm, "tasks")), 2);
    assert_int_equal(json_integer_value(json_object_get(slurm, "rank")), 0);
  }
  json_decref(runs);
  /* Each sample aggregates both ranks. */
  json_t *samples = sl_records("ranks.jsonl", "sample");
  assert_int_equal(json_array_size(samples), 6);
  json_t *s;
  json_array_foreach(samples, i, s) {
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "ranks"), "n")), 2);
  }
  json_decref(samples);
}

static void a_cancelled_job_interrupts_its_run(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("srun-cancel");
  /* One run that would spin for a minute, in a job of its own. */
  sl_write("long.yaml", "schema: 1\n"
                        "name: long\n"
                        "plugin: null\n"
                        "params: {spin_ns: 1000000000}\n"
                        "timing: {warmup: 0, cycles: 60, iters: 1, timeout: 300s}\n"
                        "launcher: [srun, --job-name=rigor-cancel-me, --ntasks=1]\n"
                        "output: long.jsonl\n");
  assert_int_equal(sl_sh("('%s' run long.yaml -q --allow-commands; echo $? >rc.txt) "
                         "</dev/null >out.txt 2>err.txt &",
                         RIGOR_EXE),
                   0);
  /* Cancel the job once it has started, then wait for rigor to record the run. */
  sl_wait(120, "j=$(squeue -h -t R -n rigor-cancel-me -o %%i); [ -n \"$j\" ] && "
               "grep -q '\"type\":\"sample\"' long.jsonl 2>/dev/null && scancel $j");
  sl_wait(120, "test -s rc.txt");
  char *rc = sl_read("rc.txt");
  assert_int_equal(atoi(rc), 0); /* interrupted is no failure of the run */
  free(rc);
  json_t *runs = sl_records("long.jsonl", "run");
  assert_int_equal(json_array_size(runs), 1);
  json_t *run = json_array_get(runs, 0);
  assert_string_equal(json_string_value(json_object_get(run, "status")), "interrupted");
  SL_HAS(json_string_value(json_object_get(run, "reason")), "was cancelled (CANCELLED");
  assert_string_equal(json_string_value(json_object_get(json_object_get(run, "slurm"), "state")),
                      "CANCELLED");
  json_decref(runs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_ranks_on_two_nodes),
      cmocka_unit_test(a_cancelled_job_interrupts_its_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
