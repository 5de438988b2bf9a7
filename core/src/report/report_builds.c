#include <stdio.h>
#include <string.h>

#include "report.h"

rigor_table_t *rigor_report_builds_table(const rigor_exp_analysis_t *e) {
  static const char *const h[] = {"build", "plugin", "version", "sha256", "file"};
  rigor_table_t *t = rigor_table_new("builds (each run loaded its build's plugin)", 5, h);
  rigor_table_name(t, "builds");
  size_t i;
  json_t *b;
  json_array_foreach(json_object_get(e->record, "builds"), i, b) {
    if (!t) break;
    const char *cells[5];
    const char *const keys[] = {"label", "name", "version", "sha256", "file"};
    for (size_t k = 0; k < 5; k++) {
      const char *v = json_string_value(json_object_get(b, keys[k]));
      cells[k] = v && *v ? v : "-";
    }
    rigor_table_add(t, cells);
  }
  return t;
}

void rigor_report_builds_notes(const rigor_exp_analysis_t *e, json_t *notes) {
  json_t *builds = json_object_get(e->record, "builds");
  for (size_t i = 0; i < json_array_size(builds); i++)
    for (size_t j = i + 1; j < json_array_size(builds); j++) {
      const char *a = json_string_value(json_object_get(json_array_get(builds, i), "sha256"));
      const char *b = json_string_value(json_object_get(json_array_get(builds, j), "sha256"));
      if (!a || !b || !*a || strcmp(a, b) != 0) continue;
      char line[512];
      snprintf(line, sizeof line,
               "builds '%s' and '%s' have identical plugins (SHA-256 %.12s...): an A/A "
               "comparison, whose contrast should be `same`",
               json_string_value(json_object_get(json_array_get(builds, i), "label")),
               json_string_value(json_object_get(json_array_get(builds, j), "label")), a);
      json_array_append_new(notes, json_string(line));
    }
}
