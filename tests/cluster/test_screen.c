/* rigor screen against the five-node test cluster: the same experiment on every node in one
 * job, one node made slow on purpose (its exec command works twice as long where
 * SLURMD_NODENAME names it) is named slow, the others same, and the exit code says so; with
 * --pairs, the two pairs of the ring that hold the slow node are slow and it is the suspect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

static const char fleet[] =
    "schema: 1\n"
    "name: fleet\n"
    "plugin: exec\n"
    "params:\n"
    "  command: [sh, -c, 'if [ \"$SLURMD_NODENAME\" = n2 ]; then sleep 0.2; else sleep 0.1; "
    "fi']\n"
    "timing: {warmup: 1, cycles: 5, iters: 1}\n"
    "order: {replicates: 8}\n"
    "output: fleet.jsonl\n";

static void the_slow_node_is_named(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("screen");
  sl_write("fleet.yaml", fleet);
  /* The exec command is a command: refused before anything is submitted. */
  sl_result_t r = sl_rigor("screen fleet.yaml --slurm --nodes all");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "--allow-commands");
  sl_result_free(&r);
  r = sl_rigor("screen fleet.yaml --nodes all --allow-commands");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "--slurm");
  sl_result_free(&r);

  /* A sleep's wakeup waits for a CPU on a busy machine: the threshold leaves room for that. */
  r = sl_rigor("screen fleet.yaml --slurm --nodes all --allow-commands --threshold 20%% "
               "--format json");
  if (r.rc != 4) fail_msg("rigor screen: %d\n%s%s", r.rc, r.out, r.err);
  json_t *doc = json_loads(r.out, 0, NULL);
  assert_non_null(doc);
  json_t *nodes = json_object_get(doc, "nodes");
  assert_int_equal(json_array_size(nodes), 5);
  size_t i;
  json_t *x;
  json_array_foreach(nodes, i, x) {
    const char *node = json_string_value(json_object_get(x, "node"));
    const char *verdict = json_string_value(json_object_get(x, "verdict"));
    assert_non_null(node);
    if (strcmp(verdict, strcmp(node, "n2") == 0 ? "slow" : "same") != 0)
      fail_msg("node %s is %s:\n%s", node, verdict, r.out);
    assert_int_equal(json_integer_value(json_object_get(x, "runs")), 8);
  }
  json_decref(doc);
  sl_result_free(&r);
  /* Each node's results are kept; a second screen into the same folder needs --force. */
  assert_int_equal(sl_sh("test -s fleet.screen/n1.jsonl && test -s fleet.screen/n3.jsonl"), 0);
  r = sl_rigor("screen fleet.yaml --slurm --nodes n1 --allow-commands");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "--force");
  sl_result_free(&r);
}

/* A node Slurm will not run (drained here) is listed as failed with its state, not waited for;
 * the others are judged without it (two nodes make no fleet to speak of: only that they ran is
 * asserted). */
static void a_drained_node_is_listed(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("screen-drained");
  sl_write("fleet.yaml",
           "schema: 1\nname: fleet\nplugin: exec\nparams: {command: [sleep, '0.02']}\n"
           "timing: {warmup: 0, cycles: 2, iters: 1}\norder: {replicates: 3}\n"
           "output: fleet.jsonl\n");
  assert_int_equal(sl_sh("scontrol update nodename=n2 state=drain reason=rigor-test"), 0);
  sl_result_t r = sl_rigor("screen fleet.yaml --slurm --nodes all --allow-commands "
                           "--threshold 20%% --format json");
  assert_int_equal(sl_sh("scontrol update nodename=n2 state=resume"), 0);
  if (r.rc != 1 && r.rc != 4) fail_msg("rigor screen: %d\n%s%s", r.rc, r.out, r.err);
  json_t *doc = json_loads(r.out, 0, NULL);
  assert_non_null(doc);
  json_t *nodes = json_object_get(doc, "nodes");
  assert_int_equal(json_array_size(nodes), 5);
  size_t i;
  json_t *x;
  json_array_foreach(nodes, i, x) {
    const char *node = json_string_value(json_object_get(x, "node"));
    const char *verdict = json_string_value(json_object_get(x, "verdict"));
    if (strcmp(node, "n2") == 0) {
      assert_string_equal(verdict, "failed");
      SL_HAS(json_string_value(json_object_get(x, "reason")), "not screened: sinfo reports it dr");
    } else {
      if (strcmp(verdict, "failed") == 0) fail_msg("node %s failed:\n%s", node, r.out);
      assert_int_equal(json_integer_value(json_object_get(x, "runs")), 3);
    }
  }
  json_decref(doc);
  sl_result_free(&r);
}

/* Pairs: two ranks of one run on the two nodes of a pair, placed by the launcher's {nodes};
 * each rank's exec works twice as long on n4, and the run's time is the slower rank's. */
static const char pairs_yaml[] =
    "schema: 1\n"
    "name: pairs\n"
    "plugin: exec\n"
    "params:\n"
    "  command: [sh, -c, 'if [ \"$SLURMD_NODENAME\" = n4 ]; then sleep 0.2; else sleep 0.1; "
    "fi']\n"
    "timing: {warmup: 1, cycles: 4, iters: 1, aggregate: max}\n"
    "launcher: [srun, --mpi=pmix, --nodes=2, --nodelist, \"{nodes}\", --ntasks, \"{ranks}\"]\n"
    "ranks: 2\n"
    "order: {replicates: 8}\n"
    "output: pairs.jsonl\n";

static void the_pairs_of_a_slow_node_are_named(void **state) {
  (void)state;
  SL_REQUIRE_CLUSTER();
  sl_scratch("screen-pairs");
  sl_write("pairs.yaml", pairs_yaml);
  /* An experiment whose launcher does not take {nodes} cannot be screened in pairs. */
  sl_write("fleet.yaml", fleet);
  sl_result_t r = sl_rigor("screen fleet.yaml --slurm --nodes all --pairs --allow-commands");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "{nodes}");
  assert_null(strstr(r.err, "submitted"));
  sl_result_free(&r);
  r = sl_rigor("screen pairs.yaml --slurm --nodes n1,n2 --pairs --allow-commands");
  assert_int_equal(r.rc, 2);
  SL_HAS(r.err, "three or more");
  sl_result_free(&r);

  /* All five by name: a node the test before drained may not be idle yet, and the job waits
   * for it where `all` would leave it out. */
  r = sl_rigor("screen pairs.yaml --slurm --nodes 'n[1-5]' --pairs --allow-commands "
               "--threshold 20%% --format json");
  if (r.rc != 4) fail_msg("rigor screen --pairs: %d\n%s%s", r.rc, r.out, r.err);
  json_t *doc = json_loads(r.out, 0, NULL);
  assert_non_null(doc);
  json_t *units = json_object_get(doc, "nodes");
  /* The ring n1+n2, n2+n3, n3+n4, n4+n5, n5+n1. */
  assert_int_equal(json_array_size(units), 5);
  size_t i;
  json_t *x;
  json_array_foreach(units, i, x) {
    const char *pair = json_string_value(json_object_get(x, "node"));
    const char *verdict = json_string_value(json_object_get(x, "verdict"));
    /* The pairs without n4 are never slow or fast; on a loaded machine (a sanitized build, two
     * pairs of two ranks on two CPUs) one run that waited for a CPU can leave a pair's
     * interval too wide to call it the same. */
    bool slow = strstr(pair, "n4") != NULL;
    if (slow ? strcmp(verdict, "slow") != 0
             : strcmp(verdict, "same") != 0 && strcmp(verdict, "inconclusive") != 0)
      fail_msg("pair %s is %s:\n%s", pair, verdict, r.out);
    assert_int_equal(json_integer_value(json_object_get(x, "runs")), 8);
  }
  json_t *suspects = json_object_get(doc, "suspects");
  assert_int_equal(json_array_size(suspects), 1);
  assert_string_equal(json_string_value(json_array_get(suspects, 0)), "n4");
  json_decref(doc);
  sl_result_free(&r);
  /* Both ranks of every run ran, on the pair's two nodes. */
  json_t *runs = sl_records("pairs.screen/n3+n4.jsonl", "run");
  assert_int_equal(json_array_size(runs), 8);
  json_array_foreach(runs, i, x) {
    const char *nodes = json_string_value(json_object_get(json_object_get(x, "slurm"), "nodes"));
    if (!nodes || (strcmp(nodes, "n[3-4]") != 0 && strcmp(nodes, "n3,n4") != 0))
      fail_msg("a run of pair n3+n4 ran on %s", nodes ? nodes : "(none)");
  }
  json_decref(runs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_slow_node_is_named),
      cmocka_unit_test(a_drained_node_is_listed),
      cmocka_unit_test(the_pairs_of_a_slow_node_are_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
