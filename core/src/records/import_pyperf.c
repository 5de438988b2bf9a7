/* pyperf JSON: {"version": "1.0", "metadata": {...}, "benchmarks": [{"metadata": {name, loops,
 * ...}, "runs": [{"metadata": {...}, "warmups": [[loops, value], ...], "values": [...]}]}]}.
 * A benchmark is a variant, each of its worker runs a run and each value a sample (cycle); the
 * warmups are dropped, and the runs that only calibrated (no values) are no runs. Metadata nest:
 * a run's over its benchmark's over the suite's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "rigor/plugin.h"

static const char *const pyperf_notes[] = {
    "pyperf values are means over a run's loops: the single loop times are not recorded",
    "warmup values are dropped, and runs that only calibrated (no values) are not imported",
    "no correctness check: #wrong is not known",
    "no start times in UTC: each run's local date is kept in its record's plugin_identity",
    NULL,
};

/* A member of the innermost metadata that has it: the run's, the benchmark's, the suite's. */
static const json_t *meta(const json_t *run, const json_t *bench, const json_t *suite,
                          const char *key) {
  const json_t *v = json_object_get(run, key);
  if (!v) v = json_object_get(bench, key);
  if (!v) v = json_object_get(suite, key);
  return v;
}

static json_t *identity_of(const json_t *suite) {
  json_t *id = json_is_object(suite) ? json_deep_copy(suite) : json_object();
  static const struct {
    const char *from, *to;
  } names[] = {{"hostname", "host"}, {"cpu_model_name", "cpu_model"}, {"cpu_count", "threads"}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    json_t *v = json_object_get(suite, names[i].from);
    if (v) json_object_set(id, names[i].to, v);
  }
  return id;
}

typedef struct pyperf {
  rigor_import_ctx_t c;
  const json_t *suite; /* metadata */
  uint32_t blocks;
  size_t calibration_runs;
} pyperf_t;

static int check_run(pyperf_t *p, const json_t *run, const char *at) {
  if (!json_is_object(run)) return rigor_import_fail(&p->c, at, "is not an object");
  rigor_import_get(&p->c, run, at, "metadata", JSON_OBJECT, true);
  rigor_import_get(&p->c, run, at, "warmups", JSON_ARRAY, true);
  json_t *values = rigor_import_get(&p->c, run, at, "values", JSON_ARRAY, true);
  size_t i;
  json_t *v;
  json_array_foreach(values, i, v) {
    if (json_is_number(v)) continue;
    char item[192];
    snprintf(item, sizeof item, "%s.values[%zu]", at, i);
    return rigor_import_fail(&p->c, item, "is not a number");
  }
  return p->c.rc;
}

static int check_benchmark(pyperf_t *p, const json_t *b, size_t i) {
  char at[64];
  snprintf(at, sizeof at, "$.benchmarks[%zu]", i);
  if (!json_is_object(b)) return rigor_import_fail(&p->c, at, "is not an object");
  json_t *md = rigor_import_get(&p->c, b, at, "metadata", JSON_OBJECT, true);
  json_t *runs = rigor_import_get(&p->c, b, at, "runs", JSON_ARRAY, false);
  if (p->c.rc) return p->c.rc;
  if (!json_is_string(meta(NULL, md, p->suite, "name")))
    return rigor_import_fail(&p->c, at, "has no \"name\" in its metadata or the suite's");
  uint32_t measured = 0;
  size_t r;
  json_t *run;
  json_array_foreach(runs, r, run) {
    char run_at[128];
    snprintf(run_at, sizeof run_at, "%s.runs[%zu]", at, r);
    if (check_run(p, run, run_at)) return p->c.rc;
    if (json_array_size(json_object_get(run, "values")) > 0)
      measured++;
    else
      p->calibration_runs++;
  }
  if (measured > p->blocks) p->blocks = measured;
  return 0;
}

/* The unit of a benchmark's values; a time unless it says otherwise. */
static const char *unit_of(const json_t *bench_md, const json_t *suite) {
  const char *unit = json_string_value(meta(NULL, bench_md, suite, "unit"));
  return unit ? unit : "second";
}

static void add_run(pyperf_t *p, json_t *records, const char *name, const json_t *bench,
                    uint32_t variant, uint32_t n_variants, const json_t *run, uint32_t block) {
  const json_t *bmd = json_object_get(bench, "metadata"), *rmd = json_object_get(run, "metadata");
  const char *label = json_string_value(meta(NULL, bmd, p->suite, "name"));
  rigor_import_run_t r = {.experiment = name,
                          .label = label,
                          .block = block,
                          .variant = variant,
                          .n_variants = n_variants,
                          .status = "ok",
                          .exit_code = -1,
                          .elapsed_s = json_number_value(json_object_get(rmd, "duration")),
                          .identity = rmd ? json_deep_copy(rmd) : json_object()};
  if (!json_is_number(json_object_get(rmd, "duration"))) r.elapsed_s = NAN;
  bool is_time = strcmp(unit_of(bmd, p->suite), "second") == 0;
  const json_t *loops = meta(rmd, bmd, p->suite, "loops");
  const json_t *inner = meta(rmd, bmd, p->suite, "inner_loops");
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(run, "values"), i, v) {
    rigor_import_sample_t s = rigor_import_sample_init(name);
    s.run = rigor_import_run_index(&r);
    s.variant = variant;
    s.cycle = (uint32_t)i;
    s.iters = json_is_number(loops) ? json_number_value(loops) : NAN;
    s.agg = json_is_number(inner) ? json_number_value(inner) : 1;
    double x = json_number_value(v);
    if (is_time) {
      s.time_s = s.wall_s = x;
      s.status = x > 0 ? "ok" : x == 0 ? "too_short" : "invalid";
    } else {
      s.metrics = json_pack("{s:f}", "value", x);
    }
    json_array_append_new(records, rigor_import_sample_record(&s));
  }
  json_array_append_new(records, rigor_import_run_record(&r));
}

static json_t *settings_of(const json_t *bench_md) {
  json_t *s = json_is_object(bench_md) ? json_deep_copy(bench_md) : json_object();
  json_object_del(s, "name");
  return s;
}

static int import_file(const char *path, json_t *records, char *err, size_t errlen) {
  pyperf_t p = {.c = {.path = path, .err = err, .errlen = errlen}};
  json_t *doc = rigor_import_load_json(path, err, errlen);
  if (!doc) return RIGOR_EINVAL;
  p.suite = rigor_import_get(&p.c, doc, "$", "metadata", JSON_OBJECT, true);
  json_t *benchmarks = rigor_import_get(&p.c, doc, "$", "benchmarks", JSON_ARRAY, false);
  rigor_import_get(&p.c, doc, "$", "version", JSON_STRING, false);
  size_t n = json_array_size(benchmarks);
  if (!p.c.rc && n == 0) rigor_import_fail(&p.c, "$.benchmarks", "is empty");
  for (size_t i = 0; !p.c.rc && i < n; i++)
    check_benchmark(&p, json_array_get(benchmarks, i), i);
  if (!p.c.rc && p.blocks == 0)
    rigor_import_fail(&p.c, "$.benchmarks", "no run has values: nothing was measured");
  json_t *file = p.c.rc ? NULL : rigor_import_file_entry(path, err, errlen);
  if (!p.c.rc && !file) p.c.rc = RIGOR_EINVAL;
  if (!p.c.rc) {
    char name[256];
    rigor_import_stem(path, ".json", name, sizeof name);
    json_t *variants = json_array(), *notes = json_array(), *metrics = json_array();
    size_t i;
    json_t *b;
    json_array_foreach(benchmarks, i, b) {
      const json_t *md = json_object_get(b, "metadata");
      const char *unit = unit_of(md, p.suite);
      json_array_append_new(variants, json_pack("{s:i, s:O, s:{}, s:o}", "index", (int)i, "label",
                                                meta(NULL, md, p.suite, "name"), "axes", "settings",
                                                settings_of(md)));
      if (strcmp(unit, "second") != 0 && json_array_size(metrics) == 0)
        json_array_append_new(metrics, json_pack("{s:s, s:s, s:s}", "name", "value", "unit", unit,
                                                 "better", "lower"));
    }
    for (size_t k = 0; pyperf_notes[k]; k++)
      json_array_append_new(notes, json_string(pyperf_notes[k]));
    json_t *identity = identity_of(p.suite);
    rigor_import_experiment_t x = {
        .name = name,
        .tool = "pyperf",
        .version = json_string_value(json_object_get(p.suite, "perf_version")),
        .files = json_pack("[o]", file),
        .settings = json_object(),
        .variants = variants,
        .blocks = p.blocks,
        .metrics = metrics,
        .identity = identity,
        .notes = notes,
    };
    json_array_append_new(records, rigor_import_experiment_record(&x));
    json_decref(x.files), json_decref(x.settings), json_decref(variants);
    json_decref(metrics), json_decref(identity), json_decref(notes);
    json_array_foreach(benchmarks, i, b) {
      uint32_t block = 0;
      size_t r;
      json_t *run;
      json_array_foreach(json_object_get(b, "runs"), r, run) {
        if (json_array_size(json_object_get(run, "values")) == 0) continue;
        add_run(&p, records, name, b, (uint32_t)i, (uint32_t)n, run, block++);
      }
    }
  }
  json_decref(doc);
  return p.c.rc;
}

int rigor_import_pyperf(const char *const *paths, size_t n, json_t *records, char *err,
                        size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    int rc = import_file(paths[i], records, err, errlen);
    if (rc) return rc;
  }
  return 0;
}
