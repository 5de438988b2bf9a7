/* How a run's end reads when Slurm ended its job: each of Slurm's end states (a time limit, a
 * node failure, a preemption...) makes the run interrupted, with a reason that names the state
 * and Slurm's own reason, and the job's exit code is read from scontrol's "STATUS:SIGNAL". A
 * real time limit takes Slurm more than a minute to enforce (it counts whole minutes and checks
 * them periodically), so here `scontrol` is a script on PATH that answers as Slurm 22.05's does
 * for the state the test sets; the cluster tests cover a real cancellation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "slurm.h"

static char bin[256];

static int fake_scontrol(void **state) {
  (void)state;
  snprintf(bin, sizeof bin, "/tmp/rigor-scontrol-XXXXXX");
  assert_non_null(mkdtemp(bin));
  char path[512];
  snprintf(path, sizeof path, "%s/scontrol", bin);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  /* `scontrol -o show job ID`: one line of KEY=VALUE, as Slurm prints it. */
  fputs("#!/bin/sh\n"
        "[ \"$1 $2 $3\" = \"-o show job\" ] || exit 2\n"
        "[ -n \"$FAKE_STATE\" ] || { echo \"slurm_load_jobs error: Invalid job id specified\" >&2;"
        " exit 1; }\n"
        "echo \"JobId=$4 JobName=rigor UserId=root(0) Priority=1 JobState=$FAKE_STATE "
        "Reason=$FAKE_REASON Dependency=(null) Requeue=1 Restarts=0 ExitCode=$FAKE_EXIT "
        "RunTime=00:01:30 TimeLimit=00:01:00\"\n",
        f);
  fclose(f);
  assert_int_equal(chmod(path, 0755), 0);
  char *old = getenv("PATH");
  char *next = NULL;
  assert_true(asprintf(&next, "%s:%s", bin, old ? old : "/usr/bin:/bin") > 0);
  setenv("PATH", next, 1);
  free(next);
  return 0;
}

static int remove_scontrol(void **state) {
  (void)state;
  char path[512];
  snprintf(path, sizeof path, "%s/scontrol", bin);
  unlink(path);
  rmdir(bin);
  return 0;
}

static void set_job(const char *state, const char *reason, const char *exit_code) {
  setenv("FAKE_STATE", state, 1);
  setenv("FAKE_REASON", reason, 1);
  setenv("FAKE_EXIT", exit_code, 1);
}

static void end_states_interrupt_the_run(void **state) {
  (void)state;
  static const struct {
    const char *state, *reason, *words;
  } cases[] = {
      {"TIMEOUT", "TimeLimit", "Slurm job 42 reached its time limit (TIMEOUT, TimeLimit)"},
      {"NODE_FAIL", "NodeDown", "Slurm job 42 lost a node (node failure) (NODE_FAIL, NodeDown)"},
      {"PREEMPTED", "None", "Slurm job 42 was preempted (PREEMPTED)"},
      {"CANCELLED", "None", "Slurm job 42 was cancelled (CANCELLED)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    set_job(cases[i].state, cases[i].reason, "0:15");
    json_t *where = json_pack("{s:s, s:s}", "job_id", "42", "node", "n1");
    rigor_run_status_t status = RIGOR_RUN_FAILED;
    char reason[1024] = "rank 0 exited on signal 15";
    assert_true(rigor_slurm_explain(where, &status, reason, sizeof reason));
    assert_int_equal(status, RIGOR_RUN_INTERRUPTED);
    if (strncmp(reason, cases[i].words, strlen(cases[i].words)) != 0)
      fail_msg("%s: %s", cases[i].state, reason);
    /* What the run said of itself stays, after Slurm's word. */
    assert_non_null(strstr(reason, "; rank 0 exited on signal 15"));
    assert_string_equal(json_string_value(json_object_get(where, "state")), cases[i].state);
    json_decref(where);
  }
}

static void other_ends_are_left_alone(void **state) {
  (void)state;
  /* A job that completed, or one Slurm no longer knows, says nothing about the run. */
  set_job("COMPLETED", "None", "0:0");
  json_t *where = json_pack("{s:s}", "job_id", "43");
  rigor_run_status_t status = RIGOR_RUN_FAILED;
  char reason[256] = "exit 3";
  assert_false(rigor_slurm_explain(where, &status, reason, sizeof reason));
  assert_int_equal(status, RIGOR_RUN_FAILED);
  assert_string_equal(reason, "exit 3");
  assert_null(json_object_get(where, "state"));
  unsetenv("FAKE_STATE");
  assert_false(rigor_slurm_explain(where, &status, reason, sizeof reason));
  json_decref(where);
  /* Outside a job: nothing to ask. */
  where = json_object();
  assert_false(rigor_slurm_explain(where, &status, reason, sizeof reason));
  json_decref(where);
}

static void job_info_reads_the_exit_code(void **state) {
  (void)state;
  char st[64], why[64];
  int code = -1;
  set_job("TIMEOUT", "TimeLimit", "0:15");
  assert_int_equal(rigor_slurm_job_info("44", st, sizeof st, why, sizeof why, &code), 0);
  assert_string_equal(st, "TIMEOUT");
  assert_string_equal(why, "TimeLimit");
  assert_int_equal(code, 128 + 15);
  assert_true(rigor_slurm_job_ended(st));
  set_job("FAILED", "NonZeroExitCode", "3:0");
  assert_int_equal(rigor_slurm_job_info("44", st, sizeof st, why, sizeof why, &code), 0);
  assert_int_equal(code, 3);
  set_job("RUNNING", "None", "0:0");
  assert_int_equal(rigor_slurm_job_info("44", st, sizeof st, why, sizeof why, &code), 0);
  assert_false(rigor_slurm_job_ended(st));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(end_states_interrupt_the_run),
      cmocka_unit_test(other_ends_are_left_alone),
      cmocka_unit_test(job_info_reads_the_exit_code),
  };
  return cmocka_run_group_tests(tests, fake_scontrol, remove_scontrol);
}
