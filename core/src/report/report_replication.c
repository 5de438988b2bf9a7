#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_util.h"
#include "report.h"

static void fmt_half_width(char *buf, size_t len, const json_t *h) {
  if (json_is_number(h))
    snprintf(buf, len, "+-%.2f%%", expm1(json_number_value(h)) * 100);
  else
    snprintf(buf, len, "-");
}

rigor_table_t *rigor_report_replication_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"target", "point", "n", "95% half-width", "stop"};
  const json_t *stop = e->stop;
  char title[256];
  double precision = rigor_json_number_at(stop, "precision");
  if (isfinite(precision))
    snprintf(title, sizeof title,
             "adaptive replication: %lld blocks (min %lld, max %lld) for a 95%% half-width of "
             "at most %.2f%%: stopped by %s",
             (long long)json_integer_value(json_object_get(stop, "blocks")),
             (long long)json_integer_value(json_object_get(stop, "min")),
             (long long)json_integer_value(json_object_get(stop, "max")), precision * 100,
             json_string_value(json_object_get(stop, "reason")));
  else
    snprintf(title, sizeof title, "replication: %lld of %lld blocks, stopped by %s",
             (long long)json_integer_value(json_object_get(stop, "blocks")),
             (long long)json_integer_value(json_object_get(stop, "max")),
             json_string_value(json_object_get(stop, "reason")));
  rigor_table_t *t = rigor_table_new(title, 5, h);
  rigor_table_name(t, "replication");
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(stop, "targets"), i, x) {
    if (!t) break;
    char target[512], n[32], hw[32];
    const char *kind = json_string_value(json_object_get(x, "kind"));
    const char *cell = json_string_value(json_object_get(x, "cell"));
    if (kind && strcmp(kind, "contrast") == 0) {
      snprintf(target, sizeof target, "%s: %s vs %s%s%s",
               json_string_value(json_object_get(x, "axis")),
               json_string_value(json_object_get(x, "level")),
               json_string_value(json_object_get(x, "reference")), cell && *cell ? ", " : "",
               cell ? cell : "");
      snprintf(n, sizeof n, "%lld blocks",
               (long long)json_integer_value(json_object_get(x, "blocks")));
    } else {
      const char *label = json_string_value(json_object_get(x, "variant_label"));
      snprintf(target, sizeof target, "%s", label ? label : "?");
      snprintf(n, sizeof n, "%lld runs", (long long)json_integer_value(json_object_get(x, "runs")));
    }
    const char *point = json_string_value(json_object_get(x, "point_label"));
    fmt_half_width(hw, sizeof hw, json_object_get(x, "half_width_log"));
    const char *stopped = json_string_value(json_object_get(x, "stop"));
    const char *cells[] = {target, point && *point ? point : "-", n, hw, stopped ? stopped : "-"};
    rigor_table_add(t, cells);
  }
  return t;
}

void rigor_report_replication_notes(const rigor_exp_analysis_t *e, json_t *notes) {
  const char *reason = json_string_value(json_object_get(e->stop, "reason"));
  if (!reason) return;
  char line[512], worst[32];
  fmt_half_width(worst, sizeof worst, json_object_get(e->stop, "worst_half_width_log"));
  long long blocks = (long long)json_integer_value(json_object_get(e->stop, "blocks"));
  double precision = rigor_json_number_at(e->stop, "precision");
  if (strcmp(reason, "max") == 0)
    snprintf(line, sizeof line,
             "precision %.2f%% was not reached in %lld blocks (worst %s): the intervals are "
             "wider than asked; raise replicates.max or quote them as they are",
             precision * 100, blocks, worst);
  else if (strcmp(reason, "decided") == 0)
    snprintf(line, sizeof line,
             "stopped after %lld blocks: every verdict at the %.2f%% threshold was beyond doubt "
             "before the intervals reached %.2f%% (worst %s)",
             blocks, rigor_json_number_at(e->stop, "decided") * 100, precision * 100, worst);
  else if (strcmp(reason, "deadline") == 0)
    snprintf(line, sizeof line,
             "the deadline stopped the experiment after %lld complete blocks (worst %s); "
             "--resume adds the rest",
             blocks, worst);
  else
    return;
  json_array_append_new(notes, json_string(line));
}
