/* The node as a column: where a file's runs ran on more than one node (a campaign under Slurm,
 * the run record's slurm.node), each variant and point per node, so that a node that differs
 * shows beside the others. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"

static const char *node_of_run(const rigor_exp_analysis_t *e, uint32_t run) {
  for (size_t i = 0; i < e->n_runs; i++)
    if (e->runs[i].run == run && e->runs[i].status == RIGOR_RUN_OK)
      return json_string_value(
          json_object_get(json_object_get(e->runs[i].record, "slurm"), "node"));
  return NULL;
}

/* The distinct nodes of the runs, in order of first appearance. */
static json_t *nodes_of(const rigor_exp_analysis_t *e) {
  json_t *nodes = json_array();
  for (size_t i = 0; i < e->n_runs; i++) {
    const char *node =
        json_string_value(json_object_get(json_object_get(e->runs[i].record, "slurm"), "node"));
    bool seen = !node;
    for (size_t k = 0; !seen && k < json_array_size(nodes); k++)
      seen = strcmp(json_string_value(json_array_get(nodes, k)), node) == 0;
    if (!seen) json_array_append_new(nodes, json_string(node));
  }
  return nodes;
}

rigor_table_t *rigor_report_nodes_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"node", "variant", "point", "runs", "median of run medians"};
  rigor_table_t *t = rigor_table_new("per node (the node each run ran on, slurm.node)", 5, h);
  if (!t) return NULL;
  rigor_table_name(t, "nodes");
  rigor_table_kind(t, 3, RIGOR_COL_COUNT);
  json_t *nodes = nodes_of(e);
  if (json_array_size(nodes) < 2) {
    json_decref(nodes);
    return t; /* one node, or none named: the column would say nothing */
  }
  double *medians = malloc((e->n_runs ? e->n_runs : 1) * sizeof *medians);
  bool time = true;
  for (size_t k = 0; medians && k < json_array_size(nodes); k++) {
    const char *node = json_string_value(json_array_get(nodes, k));
    for (size_t r = 0; r < e->n_rows; r++) {
      const rigor_row_t *w = &e->rows[r];
      const rigor_figure_t *f = &w->figure;
      size_t n = 0;
      for (size_t j = 0; j < f->n_runs && n < e->n_runs; j++) {
        const char *at = node_of_run(e, f->runs[j]);
        if (at && strcmp(at, node) == 0) medians[n++] = f->run_median[j];
      }
      if (!n) continue;
      time = time && strcmp(f->name, "time_s") == 0;
      long row = rigor_table_add_row(t);
      if (row < 0) break;
      rigor_table_set_text(t, (size_t)row, 0, node);
      rigor_table_set_text(t, (size_t)row, 1, w->variant_label ? w->variant_label : "-");
      rigor_table_set_text(t, (size_t)row, 2,
                           w->point_label && w->point_label[0] ? w->point_label : "-");
      rigor_table_set_value(t, (size_t)row, 3, (double)n);
      rigor_table_set_value(t, (size_t)row, 4, rigor_stats_median(medians, n));
    }
  }
  /* Times read in a time unit; another figure (a plugin's primary metric) as a number. */
  rigor_table_kind(t, 4, time ? RIGOR_COL_TIME : RIGOR_COL_NUMBER);
  free(medians);
  json_decref(nodes);
  return t;
}
