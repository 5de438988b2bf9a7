#include "analysis_internal.h"

#include <math.h>
#include <string.h>

#include "json_util.h"

/* The row's median of an expectation's figure: the time per operation, a rate, or a metric. */
static double figure_of(const rigor_row_t *row, const char *figure) {
  if (row->n == 0) return NAN;
  if (strcmp(figure, "time") == 0) return row->time.median;
  if (strcmp(figure, "rate") == 0) return row->bytes_per_s;
  if (strcmp(figure, "busbw") == 0) return row->busbw_per_s;
  if (strcmp(figure, "flops") == 0) return row->flops_per_s;
  for (size_t m = 0; m < row->n_metrics; m++)
    if (strcmp(row->metrics[m].name, figure) == 0) return row->metrics[m].median;
  return NAN;
}

static bool holds(double v, const char *op, double ref) {
  if (strcmp(op, ">=") == 0) return v >= ref;
  if (strcmp(op, "<=") == 0) return v <= ref;
  if (strcmp(op, ">") == 0) return v > ref;
  return v < ref;
}

int rigor__row_expectations(const rigor_gate_settings_t *gate, rigor_row_t *row) {
  const json_t *expect = gate->expect;
  size_t n = json_object_size(expect);
  if (n == 0) return 0;
  row->expect = calloc(n, sizeof *row->expect);
  if (!row->expect) return RIGOR_ENOMEM;
  const char *key;
  json_t *val;
  json_object_foreach((json_t *)expect, key, val) {
    const char *op = json_string_value(json_object_get(val, "op"));
    double ref = rigor_json_number_at(val, "value");
    if (!op || !isfinite(ref)) continue;
    rigor_expectation_t *x = &row->expect[row->n_expect++];
    x->figure = key;
    x->op = op;
    x->text = json_string_value(json_object_get(val, "text"));
    x->reference = ref;
    x->value = figure_of(row, key);
    x->met = isfinite(x->value) && holds(x->value, op, ref);
    if (isfinite(x->value) && !x->met) row->below_expectation = true;
  }
  return 0;
}

size_t rigor_expectations_missed(const rigor_analysis_t *a) {
  size_t n = 0;
  for (size_t x = 0; a && x < a->n_exps; x++)
    for (size_t r = 0; r < a->exps[x].n_rows; r++)
      n += a->exps[x].rows[r].below_expectation;
  return n;
}
