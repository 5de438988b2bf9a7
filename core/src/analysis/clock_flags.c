#include "clock_flags.h"

#include "analysis_internal.h"
#include "json_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rigor/plugin.h"
#include "stats.h"
#include "telemetry_names.h"

static bool is_clock_signal(const char *name) {
  size_t n = strlen(name), k = strlen(RIGOR_CLOCK_SUFFIX);
  return n > k && strcmp(name + n - k, RIGOR_CLOCK_SUFFIX) == 0;
}

int rigor_telemetry_flag_low_clock(const json_t *summaries, double threshold, bool *flagged,
                                   json_t **findings) {
  if (findings) *findings = NULL;
  if (!json_is_array(summaries) || !(threshold > 0 && threshold <= 1)) return RIGOR_EINVAL;
  size_t runs = json_array_size(summaries);
  if (runs > 0 && !flagged) return RIGOR_EINVAL;
  for (size_t i = 0; i < runs; i++)
    flagged[i] = false;

  json_t *signals = json_object(); /* the clock signals seen, as a set */
  size_t i;
  const json_t *summary;
  json_array_foreach(summaries, i, summary) {
    const char *name;
    const json_t *stat;
    if (!json_is_object(summary)) continue;
    json_object_foreach((json_t *)summary, name, stat) {
      if (is_clock_signal(name)) json_object_set_new(signals, name, json_true());
    }
  }
  double *medians = malloc((runs ? runs : 1) * sizeof *medians);
  json_t *found = json_array();
  if (!medians || !found) {
    free(medians);
    json_decref(found);
    json_decref(signals);
    return RIGOR_ENOMEM;
  }
  const char *signal;
  const json_t *unused;
  json_object_foreach(signals, signal, unused) {
    size_t n = 0;
    json_array_foreach(summaries, i, summary) {
      const json_t *med = json_object_get(json_object_get(summary, signal), "median");
      if (json_is_number(med)) medians[n++] = json_number_value(med);
    }
    if (n == 0) continue;
    double reference = rigor_stats_median(medians, n);
    json_array_foreach(summaries, i, summary) {
      const json_t *min = json_object_get(json_object_get(summary, signal), "min");
      if (!json_is_number(min) || !(json_number_value(min) < threshold * reference)) continue;
      flagged[i] = true;
      json_array_append_new(found, json_pack("{s:I, s:s, s:f, s:f, s:f}", "run", (json_int_t)i,
                                             "signal", signal, "min", json_number_value(min),
                                             "reference", reference, "threshold", threshold));
    }
  }
  free(medians);
  json_decref(signals);
  int count = 0;
  for (size_t k = 0; k < runs; k++)
    count += flagged[k];
  if (findings)
    *findings = found;
  else
    json_decref(found);
  return count;
}

/* Flags runs whose clock fell below the threshold of the experiment's median clock; the
 * reference needs every run, so the flag is derived here rather than when a run is written. */
int rigor__flag_low_clock(rigor_exp_analysis_t *e) {
  if (e->n_runs == 0) return 0;
  double threshold = RIGOR_CLOCK_THRESHOLD_DEFAULT;
  for (size_t v = 0; v < e->n_variants; v++)
    if (isfinite(e->variants[v].clock_threshold)) {
      threshold = e->variants[v].clock_threshold;
      break;
    }
  json_t *summaries = json_array();
  for (size_t k = 0; k < e->n_runs; k++) {
    json_t *t = json_object_get(e->runs[k].record, "telemetry");
    json_array_append_new(summaries, json_is_object(t) ? json_incref(t) : json_null());
  }
  bool *flagged = calloc(e->n_runs, sizeof *flagged);
  if (!flagged) {
    json_decref(summaries);
    return RIGOR_ENOMEM;
  }
  int n = rigor_telemetry_flag_low_clock(summaries, threshold, flagged, NULL);
  for (size_t k = 0; n > 0 && k < e->n_runs; k++) {
    rigor_variant_info_t *vi = rigor__variant_info(e, e->runs[k].variant);
    if (flagged[k] && vi)
      json_object_set_new(
          vi->flags, "low_clock",
          json_integer(json_integer_value(json_object_get(vi->flags, "low_clock")) + 1));
  }
  free(flagged);
  json_decref(summaries);
  return 0;
}
