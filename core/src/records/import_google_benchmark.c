/* Google Benchmark --benchmark_out (JSON): {"context": {date, host_name, executable, num_cpus,
 * ...}, "benchmarks": [{name, run_name, run_type, family_index, per_family_instance_index,
 * repetition_index, iterations, real_time, cpu_time, time_unit, counters...}, ...]}. A family
 * (BM_memcpy) is a variant, its instances (the 64 of BM_memcpy/64) the points, shared by the
 * families as a sweep is by variants, and repetition r of every
 * instance run r; each entry gives one time per iteration over its window, so one sample. The
 * aggregates Google Benchmark adds (_mean, _median, _stddev, _cv) are its statistics, not
 * measurements, and are left out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "rigor/plugin.h"

static const char *const gbench_notes[] = {
    "Google Benchmark gives one time per repetition (its mean over the iterations): one sample per "
    "run and point, so no within-run spread and no first-cycle penalty",
    "no correctness check: #wrong is not known",
    "its aggregates (_mean, _median, _stddev, _cv) are not samples: the statistics are computed "
    "from the repetitions",
    NULL,
};

/* Members of an entry that are not counters. */
static const char *const entry_members[] = {"name",
                                            "run_name",
                                            "run_type",
                                            "family_index",
                                            "per_family_instance_index",
                                            "repetitions",
                                            "threads",
                                            "repetition_index",
                                            "iterations",
                                            "real_time",
                                            "cpu_time",
                                            "time_unit",
                                            "aggregate_name",
                                            "aggregate_unit",
                                            "error_occurred",
                                            "error_message",
                                            "label",
                                            "bytes_per_second",
                                            NULL};

static bool is_entry_member(const char *key) {
  for (size_t i = 0; entry_members[i]; i++)
    if (strcmp(entry_members[i], key) == 0) return true;
  return false;
}

static double unit_scale(const char *unit) {
  static const struct {
    const char *name;
    double seconds;
  } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  for (size_t i = 0; unit && i < sizeof units / sizeof *units; i++)
    if (strcmp(units[i].name, unit) == 0) return units[i].seconds;
  return NAN;
}

/* One measured entry, where it belongs. */
typedef struct entry {
  const json_t *json;
  size_t at; /* index in $.benchmarks */
  uint32_t family, point, repetition;
} entry_t;

typedef struct gbench {
  rigor_import_ctx_t c;
  json_t *families;  /* [{name}] in first-seen order */
  json_t *points;    /* [instance label] in first-seen order */
  json_t *by_family; /* family key -> index in families */
  json_t *metrics;   /* name -> {name, unit, better} */
  json_t *seen;      /* run_name -> repetitions seen, for files without repetition_index */
  entry_t *entries;
  size_t n;
  uint32_t blocks;
  const json_t *load_avg; /* the context's, when the run began: each run record keeps it */
} gbench_t;

static bool is_aggregate(const json_t *b) {
  const char *type = json_string_value(json_object_get(b, "run_type"));
  return (type && strcmp(type, "aggregate") == 0) || json_object_get(b, "aggregate_name");
}

/* The family's name: run_name up to its first '/' (BM_memcpy of BM_memcpy/64/threads:2). */
static void family_name(const char *run_name, char *buf, size_t cap) {
  snprintf(buf, cap, "%.*s", (int)strcspn(run_name, "/"), run_name);
}

static uint32_t index_of(json_t *list, const char *label) {
  size_t i;
  json_t *v;
  json_array_foreach(list, i, v) if (strcmp(json_string_value(v), label) == 0) return (uint32_t)i;
  json_array_append_new(list, json_string(label));
  return (uint32_t)json_array_size(list) - 1;
}

static void add_metric(gbench_t *g, const char *name) {
  if (json_object_get(g->metrics, name)) return;
  json_t *m = json_pack("{s:s, s:s}", "name", name, "unit", "");
  if (strcmp(name, "items_per_second") == 0) {
    json_object_set_new(m, "unit", json_string("1/s"));
    json_object_set_new(m, "better", json_string("higher"));
  }
  json_object_set_new(g->metrics, name, m);
}

static int read_entry(gbench_t *g, const json_t *b, size_t i) {
  char at[64];
  snprintf(at, sizeof at, "$.benchmarks[%zu]", i);
  if (!json_is_object(b)) return rigor_import_fail(&g->c, at, "is not an object");
  if (is_aggregate(b)) return 0;
  json_t *name = rigor_import_get(&g->c, b, at, "name", JSON_STRING, false);
  json_t *run_name = rigor_import_get(&g->c, b, at, "run_name", JSON_STRING, true);
  json_t *family = rigor_import_get(&g->c, b, at, "family_index", JSON_INTEGER, true);
  json_t *rep = rigor_import_get(&g->c, b, at, "repetition_index", JSON_INTEGER, true);
  rigor_import_get(&g->c, b, at, "iterations", JSON_INTEGER, false);
  rigor_import_get(&g->c, b, at, "real_time", JSON_REAL, false);
  rigor_import_get(&g->c, b, at, "cpu_time", JSON_REAL, false);
  json_t *unit = rigor_import_get(&g->c, b, at, "time_unit", JSON_STRING, false);
  if (g->c.rc) return g->c.rc;
  if (!isfinite(unit_scale(json_string_value(unit))))
    return rigor_import_fail(&g->c, at, "\"time_unit\" '%s' is none of ns, us, ms and s",
                             json_string_value(unit));
  const char *rn = json_string_value(run_name ? run_name : name);
  char fam[512], key[64];
  family_name(rn, fam, sizeof fam);
  if (family)
    snprintf(key, sizeof key, "%lld", (long long)json_integer_value(family));
  else
    snprintf(key, sizeof key, "%.63s", fam);
  json_t *fi = json_object_get(g->by_family, key);
  if (!fi) {
    fi = json_integer((json_int_t)json_array_size(g->families));
    json_object_set_new(g->by_family, key, fi);
    json_array_append_new(g->families, json_pack("{s:s}", "name", fam));
  }
  const char *rest = rn + strcspn(rn, "/");
  entry_t *e = &g->entries[g->n++];
  e->json = b;
  e->at = i;
  e->family = (uint32_t)json_integer_value(fi);
  e->point = index_of(g->points, rest[0] ? rest + 1 : "");
  if (rep) {
    if (json_integer_value(rep) < 0 || json_integer_value(rep) >= 1000000)
      return rigor_import_fail(&g->c, at, "\"repetition_index\" %lld is out of range",
                               (long long)json_integer_value(rep));
    e->repetition = (uint32_t)json_integer_value(rep);
  } else {
    /* Before repetition_index, the repetitions of an instance came one after another. */
    json_t *count = json_object_get(g->seen, rn);
    e->repetition = count ? (uint32_t)json_integer_value(count) : 0;
    json_object_set_new(g->seen, rn, json_integer(e->repetition + 1));
  }
  for (size_t k = 0; k + 1 < g->n; k++)
    if (g->entries[k].family == e->family && g->entries[k].point == e->point &&
        g->entries[k].repetition == e->repetition)
      return rigor_import_fail(&g->c, at, "repeats repetition %u of %s (as $.benchmarks[%zu])",
                               e->repetition, rn, g->entries[k].at);
  if (e->repetition + 1 > g->blocks) g->blocks = e->repetition + 1;
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)b, k, v) if (!is_entry_member(k) && json_is_number(v))
      add_metric(g, k);
  return 0;
}

static json_t *sample_of(const char *experiment, const entry_t *e, uint32_t run,
                         const char *point_label) {
  const json_t *b = e->json;
  rigor_import_sample_t s = rigor_import_sample_init(experiment);
  s.run = run;
  s.variant = e->family;
  s.point = e->point;
  s.point_label = point_label;
  s.point_params = json_pack("{s:s}", "instance", point_label);
  json_t *threads = json_object_get(b, "threads");
  if (json_is_integer(threads)) json_object_set(s.point_params, "threads", threads);
  double scale = unit_scale(json_string_value(json_object_get(b, "time_unit")));
  s.iters = json_number_value(json_object_get(b, "iterations"));
  s.agg = 1;
  s.extra = json_object();
  if (json_is_true(json_object_get(b, "error_occurred"))) {
    s.status = "invalid";
    json_object_set(s.extra, "error", json_object_get(b, "error_message"));
  } else {
    s.time_s = s.wall_s = json_number_value(json_object_get(b, "real_time")) * scale;
    s.cputime_s = json_number_value(json_object_get(b, "cpu_time")) * scale;
    s.status = s.time_s > 0 ? "ok" : s.time_s == 0 ? "too_short" : "invalid";
  }
  json_t *bps = json_object_get(b, "bytes_per_second");
  if (json_is_number(bps)) s.bytes_per_s = json_number_value(bps);
  if (json_is_string(json_object_get(b, "label")))
    json_object_set(s.extra, "label", json_object_get(b, "label"));
  s.metrics = json_object();
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)b, k, v) if (!is_entry_member(k) && json_is_number(v))
      json_object_set(s.metrics, k, v);
  return rigor_import_sample_record(&s);
}

/* Run r of family f: the samples of its instances' repetition r. */
static void add_run(gbench_t *g, json_t *records, const char *name, uint32_t f, uint32_t r) {
  json_t *fobj = json_array_get(g->families, f);
  rigor_import_run_t run = {.experiment = name,
                            .label = json_string_value(json_object_get(fobj, "name")),
                            .block = r,
                            .variant = f,
                            .n_variants = (uint32_t)json_array_size(g->families),
                            .status = "ok",
                            .exit_code = -1,
                            .elapsed_s = NAN};
  size_t samples = 0, errors = 0;
  const char *first_error = NULL;
  for (size_t i = 0; i < g->n; i++) {
    const entry_t *e = &g->entries[i];
    if (e->family != f || e->repetition != r) continue;
    const char *label = json_string_value(json_array_get(g->points, e->point));
    json_array_append_new(records, sample_of(name, e, rigor_import_run_index(&run), label));
    samples++;
    if (json_is_true(json_object_get(e->json, "error_occurred"))) {
      errors++;
      if (!first_error) first_error = json_string_value(json_object_get(e->json, "error_message"));
    }
  }
  if (samples == 0) return;
  if (g->load_avg) run.identity = json_pack("{s:O}", "load_avg", g->load_avg);
  if (errors == samples) {
    run.status = "failed";
    run.reason = first_error ? first_error : "the benchmark reported an error";
  }
  json_array_append_new(records, rigor_import_run_record(&run));
}

static json_t *identity_of(const json_t *context) {
  json_t *id = json_deep_copy(context);
  if (!json_is_object(id)) return json_object();
  json_object_del(id, "date");
  json_object_del(id, "load_avg");
  json_object_del(id, "library_version");
  json_t *host = json_object_get(context, "host_name");
  if (json_is_string(host)) json_object_set(id, "host", host);
  json_t *cpus = json_object_get(context, "num_cpus");
  if (json_is_integer(cpus)) json_object_set(id, "threads", cpus);
  return id;
}

static int import_file(const char *path, json_t *records, char *err, size_t errlen) {
  gbench_t g = {.c = {.path = path, .err = err, .errlen = errlen}};
  json_t *doc = rigor_import_load_json(path, err, errlen);
  if (!doc) return RIGOR_EINVAL;
  json_t *context = rigor_import_get(&g.c, doc, "$", "context", JSON_OBJECT, false);
  json_t *benchmarks = rigor_import_get(&g.c, doc, "$", "benchmarks", JSON_ARRAY, false);
  json_t *version =
      rigor_import_get(&g.c, context, "$.context", "library_version", JSON_STRING, true);
  json_t *date = rigor_import_get(&g.c, context, "$.context", "date", JSON_STRING, true);
  g.load_avg = json_object_get(context, "load_avg");
  g.families = json_array();
  g.points = json_array();
  g.by_family = json_object();
  g.metrics = json_object();
  g.seen = json_object();
  size_t n = json_array_size(benchmarks);
  g.entries = calloc(n ? n : 1, sizeof *g.entries);
  for (size_t i = 0; !g.c.rc && i < n; i++)
    read_entry(&g, json_array_get(benchmarks, i), i);
  if (!g.c.rc && g.n == 0)
    rigor_import_fail(&g.c, "$.benchmarks",
                      n ? "holds only aggregates (--benchmark_report_aggregates_only): no "
                          "repetition to import"
                        : "is empty");
  json_t *file = g.c.rc ? NULL : rigor_import_file_entry(path, err, errlen);
  if (!g.c.rc && !file) g.c.rc = RIGOR_EINVAL;
  if (!g.c.rc) {
    char name[256];
    rigor_import_stem(path, ".json", name, sizeof name);
    json_t *variants = json_array(), *notes = json_array(), *metrics = json_array();
    size_t i;
    json_t *f;
    json_array_foreach(g.families, i, f) {
      json_array_append_new(variants, json_pack("{s:i, s:O, s:{}, s:{s:O}}", "index", (int)i,
                                                "label", json_object_get(f, "name"), "axes",
                                                "settings", "family", json_object_get(f, "name")));
    }
    const char *k;
    json_t *m;
    json_object_foreach(g.metrics, k, m) json_array_append(metrics, m);
    for (size_t j = 0; gbench_notes[j]; j++)
      json_array_append_new(notes, json_string(gbench_notes[j]));
    json_t *identity = identity_of(context);
    rigor_import_experiment_t x = {
        .name = name,
        .tool = "google-benchmark",
        .version = json_string_value(version),
        .files = json_pack("[o]", file),
        .settings = json_object(),
        .variants = variants,
        .blocks = g.blocks,
        .metrics = metrics,
        .identity = identity,
        .created = json_string_value(date),
        .notes = notes,
    };
    json_array_append_new(records, rigor_import_experiment_record(&x));
    json_decref(x.files), json_decref(x.settings), json_decref(variants);
    json_decref(metrics), json_decref(identity), json_decref(notes);
    for (uint32_t fi = 0; fi < json_array_size(g.families); fi++)
      for (uint32_t r = 0; r < g.blocks; r++)
        add_run(&g, records, name, fi, r);
  }
  free(g.entries);
  json_decref(g.families), json_decref(g.points), json_decref(g.by_family), json_decref(g.metrics),
      json_decref(g.seen);
  json_decref(doc);
  return g.c.rc;
}

int rigor_import_google_benchmark(const char *const *paths, size_t n, json_t *records, char *err,
                                  size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    int rc = import_file(paths[i], records, err, errlen);
    if (rc) return rc;
  }
  return 0;
}
