/* The fleet screen's judgement without Slurm: three nodes' results made by real runs of the exec
 * plugin here (one "node" sleeps twice as long per operation: a sleep, unlike a spin, does not
 * stretch when other work shares the CPUs) and a node with no results; the
 * slow one is slow, the others same, the one without results failed with its reason, and the
 * intervals' levels follow Holm's steps over the nodes. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis.h"
#include "screen.h"
#include "compare_doc.h"
#include "support.h"
#include "writers.h"

static void run_node(const char *node, const char *seconds) {
  char yaml[1024];
  snprintf(yaml, sizeof yaml,
           "schema: 1\nname: fleet\nplugin: exec\nparams: {command: [sleep, '%s']}\n"
           "timing: {warmup: 0, cycles: 5, iters: 1}\norder: {replicates: 6}\n"
           "output: %s.jsonl\n",
           seconds, node);
  char name[64];
  snprintf(name, sizeof name, "%s.yaml", node);
  sl_write(name, yaml);
  sl_result_t r = sl_rigor("run %s --quiet --allow-commands", name);
  if (r.rc != 0) fail_msg("rigor run %s: %d\n%s", name, r.rc, r.err);
  sl_result_free(&r);
}

static void slow_same_and_failed(void **state) {
  (void)state;
  const char *dir = sl_scratch("screen-judge");
  run_node("n1", "0.05");
  run_node("n2", "0.1");
  run_node("n3", "0.05");
  rigor_analysis_t *a[3] = {0};
  rigor_screen_input_t in[4];
  const char *names[] = {"n1", "n2", "n3"};
  for (int i = 0; i < 3; i++) {
    char path[2048], err[1024];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, names[i]);
    const char *p = path;
    if (rigor_analysis_load(&p, 1, &a[i], err, sizeof err) != 0) fail_msg("%s", err);
    in[i] = (rigor_screen_input_t){.node = names[i], .analysis = a[i]};
  }
  in[3] = (rigor_screen_input_t){.node = "n4", .failure = "its job step left no results"};
  rigor_screen_t s;
  char err[1024];
  /* A sleep's wakeup waits for a CPU on a busy machine: the threshold leaves room for that. */
  assert_int_equal(rigor_screen_judge(in, 4, 0.20, 0.05, &s, err, sizeof err), 0);
  assert_int_equal(s.n, 4);
  assert_int_equal(s.count[RIGOR_SCREEN_SLOW], 1);
  assert_int_equal(s.count[RIGOR_SCREEN_FAILED], 1);
  for (size_t i = 0; i < s.n; i++) {
    const rigor_screen_entry_t *x = &s.items[i];
    if (strcmp(x->node, "n4") == 0) {
      assert_int_equal(x->verdict, RIGOR_SCREEN_FAILED);
      SL_HAS(x->reason, "left no results");
      continue;
    }
    assert_int_equal(x->n_runs, 6);
    assert_true(x->lo <= x->ratio && x->ratio <= x->hi);
    if (strcmp(x->node, "n2") == 0) {
      if (x->verdict != RIGOR_SCREEN_SLOW) fail_msg("n2: %s (%s)", "not slow", x->reason);
      assert_true(x->ratio > 1.5 && x->ratio < 2.5);
      /* The smallest p of the three judged nodes: Holm's first, strictest step. */
      assert_true(fabs(x->level - (1 - 0.05 / 3)) < 1e-12);
    } else {
      if (x->verdict != RIGOR_SCREEN_SAME)
        fail_msg("%s: %s at %.4f [%.4f, %.4f] (%s)", x->node, rigor_screen_verdict_name(x->verdict),
                 x->ratio, x->lo, x->hi, x->reason);
      assert_true(x->level < 1 - 0.05 / 3 + 1e-12 && x->level >= 0.95 - 1e-12);
    }
  }
  /* The document names the slow node first and lists every node. */
  rigor_doc_t *doc = rigor_screen_doc(&s, "fleet");
  assert_non_null(doc);
  json_t *nodes = json_object_get(doc->data, "nodes");
  assert_int_equal(json_array_size(nodes), 4);
  bool sentence = false;
  for (size_t i = 0; i < doc->n_parts; i++)
    sentence = sentence || (doc->parts[i].text && strstr(doc->parts[i].text, "n2 is slow"));
  assert_true(sentence);
  /* Every format shows it. */
  for (const rigor_writer_t *w = rigor_writers; w->name; w++) {
    FILE *out = tmpfile();
    assert_non_null(out);
    if (w->write(doc, out) != 0) fail_msg("the %s writer failed", w->name);
    assert_true(ftell(out) > 0);
    fclose(out);
  }
  rigor_doc_free(doc);
  rigor_screen_free(&s);
  for (int i = 0; i < 3; i++)
    rigor_analysis_free(a[i]);
}

/* Pairs of a ring of five: n3+n4 slow and n4+n5 failed (a link that does not work), the rest
 * the same; n4, the node both bad pairs share, is the one suspect, and the document speaks of
 * pairs. */
static void pairs_name_the_node_they_share(void **state) {
  (void)state;
  const char *dir = sl_scratch("screen-judge-pairs");
  run_node("fast", "0.05");
  run_node("slow", "0.1");
  rigor_analysis_t *fast = NULL, *slow = NULL;
  char path[2048], err[1024];
  snprintf(path, sizeof path, "%s/fast.jsonl", dir);
  const char *p = path;
  if (rigor_analysis_load(&p, 1, &fast, err, sizeof err) != 0) fail_msg("%s", err);
  snprintf(path, sizeof path, "%s/slow.jsonl", dir);
  p = path;
  if (rigor_analysis_load(&p, 1, &slow, err, sizeof err) != 0) fail_msg("%s", err);
  rigor_screen_input_t in[] = {
      {.node = "n1+n2", .analysis = fast},
      {.node = "n2+n3", .analysis = fast},
      {.node = "n3+n4", .analysis = slow},
      {.node = "n4+n5", .failure = "srun: error: a node's network is down"},
      {.node = "n5+n1", .analysis = fast},
  };
  rigor_screen_t s;
  assert_int_equal(rigor_screen_judge(in, 5, 0.20, 0.05, &s, err, sizeof err), 0);
  json_t *suspects = rigor_screen_suspects(&s);
  assert_int_equal(json_array_size(suspects), 1);
  assert_string_equal(json_string_value(json_array_get(suspects, 0)), "n4");
  json_decref(suspects);
  rigor_doc_t *doc = rigor_screen_doc(&s, "pairs");
  assert_non_null(doc);
  suspects = json_object_get(doc->data, "suspects");
  assert_int_equal(json_array_size(suspects), 1);
  bool named = false, pair_sentence = false;
  for (size_t i = 0; i < doc->n_parts; i++) {
    const char *text = doc->parts[i].text;
    named = named || (text && strstr(text, "suspect nodes") && strstr(text, ": n4"));
    pair_sentence = pair_sentence ||
                    (text && strstr(text, "n3+n4 is slow") && strstr(text, "the pairs' median"));
  }
  assert_true(named);
  assert_true(pair_sentence);
  rigor_doc_free(doc);
  rigor_screen_free(&s);
  /* Units that are nodes have no suspects. */
  rigor_screen_input_t nodes[] = {{.node = "n1", .analysis = fast},
                                  {.node = "n2", .analysis = fast},
                                  {.node = "n3", .analysis = slow}};
  assert_int_equal(rigor_screen_judge(nodes, 3, 0.20, 0.05, &s, err, sizeof err), 0);
  suspects = rigor_screen_suspects(&s);
  assert_int_equal(json_array_size(suspects), 0);
  json_decref(suspects);
  rigor_screen_free(&s);
  rigor_analysis_free(fast);
  rigor_analysis_free(slow);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(slow_same_and_failed),
      cmocka_unit_test(pairs_name_the_node_they_share),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
