/* nccl-tests results as experiments: one per collective (all_reduce_perf), each run of its
 * binary a block, out-of-place and in-place the levels of a `placement` axis (with the data
 * type, operation and root as axes too when the runs cover several), the sizes the sweep
 * points, and the header's settings the config. The text table and -J are read apart
 * (import_nccl_tests_text.c, import_nccl_tests_json.c); this file turns their sections into
 * records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_nccl_tests.h"
#include "rigor/plugin.h"

static const char *const placement_names[2] = {"out-of-place", "in-place"};

static const char *const nccl_notes[] = {
    "nccl-tests prints one time per size and run (its mean over the -n iterations): one sample "
    "per run and point (one per -N cycle), so no within-run spread unless -N repeats the sweep",
    "the text table rounds times and bandwidths to what it prints",
    "no start times in UTC: -J's local start_time is kept in each run's plugin_identity",
    NULL,
};

nccl_row_t *nccl_section_row(nccl_section_t *s) {
  if (s->n_rows == s->cap_rows) {
    size_t cap = s->cap_rows ? 2 * s->cap_rows : 64;
    nccl_row_t *rows = realloc(s->rows, cap * sizeof *rows);
    if (!rows) return NULL;
    s->rows = rows;
    s->cap_rows = cap;
  }
  nccl_row_t *row = &s->rows[s->n_rows++];
  memset(row, 0, sizeof *row);
  return row;
}

void nccl_section_free(nccl_section_t *s) {
  for (size_t i = 0; i < s->n_rows; i++)
    for (int p = 0; p < 2; p++)
      json_decref(s->rows[i].m[p].iterations);
  free(s->rows);
  json_decref(s->settings);
  json_decref(s->identity);
  json_decref(s->run_detail);
}

static char *slurp(const char *path, rigor_import_ctx_t *c) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    rigor_import_fail(c, NULL, "cannot read it");
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
    n += got;
    if (n + 1 == cap) {
      char *more = realloc(buf, cap *= 2);
      if (!more) free(buf);
      buf = more;
    }
  }
  fclose(f);
  if (!buf) rigor_import_fail(c, NULL, "out of memory");
  if (buf) buf[n] = '\0';
  return buf;
}

static int read_file(const char *path, nccl_section_t **all, size_t *n_all, char *err,
                     size_t errlen) {
  rigor_import_ctx_t c = {.path = path, .err = err, .errlen = errlen};
  char *text = slurp(path, &c);
  if (!text) return c.rc;
  if (text[strspn(text, " \t\r\n")] == '{') {
    json_t *doc = rigor_import_load_json(path, err, errlen);
    if (!doc)
      c.rc = RIGOR_EINVAL;
    else
      nccl_read_json(&c, doc, all, n_all);
    json_decref(doc);
  } else {
    nccl_read_text(&c, text, all, n_all);
  }
  free(text);
  return c.rc;
}

/* The experiment a section belongs to: its program, else its file's name. */
static void experiment_of(const nccl_section_t *s, char *buf, size_t cap) {
  if (s->program[0])
    snprintf(buf, cap, "%s", s->program);
  else
    rigor_import_stem(s->path, NULL, buf, cap);
}

/* What tells variants apart beside the placement. */
enum { FIELD_TYPE, FIELD_REDOP, FIELD_ROOT, N_FIELDS };
static const char *const field_names[N_FIELDS] = {"type", "redop", "root"};

static const char *field(const nccl_row_t *r, int f) {
  return f == FIELD_TYPE ? r->type : f == FIELD_REDOP ? r->redop : r->root;
}

typedef struct group {
  const char *name;
  nccl_section_t **sections;
  size_t n;
  bool varies[N_FIELDS];
  json_t *tuples;    /* [[type, redop, root], ...] in first-seen order */
  json_t *sizes;     /* [size, ...] in first-seen order */
  bool placement[2]; /* which ones any row measured */
  uint32_t n_variants;
} group_t;

static json_t *tuple_of(const nccl_row_t *r) {
  return json_pack("[s, s, s]", r->type, r->redop, r->root);
}

static size_t index_in(json_t *list, json_t *value) {
  size_t i;
  json_t *v;
  json_array_foreach(list, i, v) if (json_equal(v, value)) {
    json_decref(value);
    return i;
  }
  json_array_append_new(list, value);
  return json_array_size(list) - 1;
}

static void survey(group_t *g) {
  g->tuples = json_array();
  g->sizes = json_array();
  for (size_t s = 0; s < g->n; s++)
    for (size_t i = 0; i < g->sections[s]->n_rows; i++) {
      const nccl_row_t *r = &g->sections[s]->rows[i];
      index_in(g->tuples, tuple_of(r));
      index_in(g->sizes, json_integer((json_int_t)r->size));
      for (int p = 0; p < 2; p++)
        g->placement[p] = g->placement[p] || r->m[p].present;
      for (int f = 0; f < N_FIELDS; f++)
        g->varies[f] = g->varies[f] || strcmp(field(r, f), field(&g->sections[0]->rows[0], f));
    }
  size_t n_place = (size_t)g->placement[0] + (size_t)g->placement[1];
  g->n_variants = (uint32_t)(json_array_size(g->tuples) * n_place);
}

/* Variant index of (tuple, placement): tuples outer, placements inner. */
static uint32_t variant_of(const group_t *g, size_t tuple, int placement) {
  size_t n_place = (size_t)g->placement[0] + (size_t)g->placement[1];
  size_t p = placement == NCCL_IN_PLACE && g->placement[0] ? 1 : 0;
  return (uint32_t)(tuple * n_place + p);
}

static json_t *axes_of(const group_t *g) {
  json_t *axes = json_array();
  for (int f = 0; f < N_FIELDS; f++) {
    if (!g->varies[f]) continue;
    json_t *values = json_array(), *seen = json_array();
    size_t i;
    json_t *t;
    json_array_foreach(g->tuples, i, t) {
      json_t *v = json_array_get(t, (size_t)f);
      size_t before = json_array_size(seen);
      if (index_in(seen, json_incref(v)) == before)
        json_array_append_new(values, json_pack("{s:O, s:O}", "label", v, "value", v));
    }
    json_decref(seen);
    json_array_append_new(axes, json_pack("{s:s, s:o}", "axis", field_names[f], "values", values));
  }
  json_t *values = json_array();
  for (int p = 0; p < 2; p++)
    if (g->placement[p])
      json_array_append_new(values, json_pack("{s:s, s:s}", "label", placement_names[p], "value",
                                              placement_names[p]));
  json_array_append_new(axes, json_pack("{s:s, s:o}", "axis", "placement", "values", values));
  return axes;
}

/* "type=float, placement=in-place", as rigor labels a matrix's variants. */
static void variant_label(const group_t *g, size_t tuple, int placement, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  for (int f = 0; f < N_FIELDS && used < cap; f++)
    if (g->varies[f])
      used += (size_t)snprintf(
          buf + used, cap - used, "%s=%s, ", field_names[f],
          json_string_value(json_array_get(json_array_get(g->tuples, tuple), (size_t)f)));
  if (used < cap) snprintf(buf + used, cap - used, "placement=%s", placement_names[placement]);
}

static json_t *variants_of(const group_t *g) {
  json_t *variants = json_array();
  size_t i;
  json_t *t;
  json_array_foreach(g->tuples, i, t) {
    for (int p = 0; p < 2; p++) {
      if (!g->placement[p]) continue;
      json_t *axes = json_object();
      for (int f = 0; f < N_FIELDS; f++)
        if (g->varies[f]) json_object_set(axes, field_names[f], json_array_get(t, (size_t)f));
      json_object_set_new(axes, "placement", json_string(placement_names[p]));
      char label[256];
      variant_label(g, i, p, label, sizeof label);
      json_array_append_new(variants,
                            json_pack("{s:i, s:s, s:o, s:{}}", "index", (int)variant_of(g, i, p),
                                      "label", label, "axes", axes, "settings"));
    }
  }
  return variants;
}

static json_t *settings_of(const group_t *g) {
  const nccl_section_t *s = g->sections[0];
  json_t *settings = json_deep_copy(s->settings);
  json_object_set_new(settings, "report_cputime", json_boolean(s->cputime));
  json_object_set_new(
      settings, "ranks",
      json_integer((json_int_t)json_array_size(json_object_get(s->identity, "devices"))));
  for (int f = 0; f < N_FIELDS; f++)
    if (!g->varies[f] && s->n_rows)
      json_object_set_new(settings, field_names[f], json_string(field(&s->rows[0], f)));
  return settings;
}

/* Runs of one binary that ran otherwise are not blocks of one experiment. The table and -J
 * record different settings, so only those both record are compared. */
static int check_same_settings(const group_t *g, char *err, size_t errlen) {
  const nccl_section_t *first = g->sections[0];
  for (size_t i = 1; i < g->n; i++) {
    const nccl_section_t *s = g->sections[i];
    const char *key = NULL, *differs = s->cputime != first->cputime ? "report_cputime" : NULL;
    json_t *v;
    json_object_foreach(s->settings, key, v) {
      json_t *other = json_object_get(first->settings, key);
      if (!differs && other && !json_equal(v, other)) differs = key;
    }
    if (differs) {
      snprintf(err, errlen,
               "%s:%zu: %s ran with other settings (%s) than at %s:%zu: import them into "
               "separate files",
               s->path, s->line, g->name, differs, first->path, first->line);
      return RIGOR_EINVAL;
    }
  }
  return 0;
}

static json_t *check_of(const nccl_measure_t *m) {
  if (isnan(m->wrong)) return NULL;
  return json_pack("{s:i, s:f, s:n, s:n, s:n, s:n}", "checked", 1, "wrong", m->wrong, "max_abs_err",
                   "max_rel_err", "tolerance", "detail");
}

static json_t *sample_of(const group_t *g, const nccl_section_t *s, const nccl_row_t *r, int p,
                         uint32_t run, uint32_t variant, uint32_t cycle) {
  const nccl_measure_t *m = &r->m[p];
  rigor_import_sample_t x = rigor_import_sample_init(g->name);
  x.run = run;
  x.variant = variant;
  x.cycle = cycle;
  json_t *size = json_integer((json_int_t)r->size);
  x.point = (uint32_t)index_in(g->sizes, size);
  char label[64];
  snprintf(label, sizeof label, "bytes=%.0f", r->size);
  x.point_label = label;
  x.point_params = json_pack("{s:I}", "bytes", (json_int_t)r->size);
  double t = m->time_us * 1e-6;
  x.window = s->cputime ? "cputime" : "wall";
  x.time_s = t;
  *(s->cputime ? &x.cputime_s : &x.wall_s) = t;
  x.status = m->wrong > 0 ? "wrong" : t > 0 ? "ok" : t == 0 ? "too_short" : "invalid";
  x.iters = json_number_value(json_object_get(s->settings, "iterations"));
  x.agg = json_number_value(json_object_get(s->settings, "aggregated_iterations"));
  if (!json_is_number(json_object_get(s->settings, "iterations"))) x.iters = NAN;
  if (!json_is_number(json_object_get(s->settings, "aggregated_iterations"))) x.agg = NAN;
  x.bytes = r->size;
  x.bytes_per_s = m->algbw_gbs * 1e9;
  x.busbw_bytes_per_s = m->busbw_gbs * 1e9;
  if (m->algbw_gbs > 0) x.bus_factor = m->busbw_gbs / m->algbw_gbs;
  x.check = check_of(m);
  x.extra = json_object();
  if (!isnan(r->count)) json_object_set_new(x.extra, "count", json_integer((json_int_t)r->count));
  if (m->iterations) {
    /* The table's summary is over -n iterations less the -K skipped (-J says how many). */
    json_t *it = json_deep_copy(m->iterations);
    json_t *skip = json_object_get(s->settings, "per_iter_skip");
    if (!json_object_get(it, "n") && isfinite(x.iters))
      json_object_set_new(it, "n",
                          json_integer((json_int_t)x.iters -
                                       (json_is_integer(skip) ? json_integer_value(skip) : 0)));
    json_object_set_new(x.extra, "iterations", it);
  }
  return rigor_import_sample_record(&x);
}

static void add_runs(const group_t *g, size_t block, json_t *records) {
  const nccl_section_t *s = g->sections[block];
  for (size_t t = 0; t < json_array_size(g->tuples); t++)
    for (int p = 0; p < 2; p++) {
      if (!g->placement[p]) continue;
      uint32_t variant = variant_of(g, t, p);
      rigor_import_run_t run = {.experiment = g->name,
                                .block = (uint32_t)block,
                                .variant = variant,
                                .n_variants = g->n_variants,
                                .status = "ok",
                                .exit_code = -1,
                                .elapsed_s = NAN};
      size_t samples = 0;
      for (size_t i = 0; i < s->n_rows; i++) {
        const nccl_row_t *r = &s->rows[i];
        json_t *tuple = tuple_of(r);
        bool mine = json_equal(tuple, json_array_get(g->tuples, t)) && r->m[p].present;
        json_decref(tuple);
        if (!mine) continue;
        uint32_t cycle = 0; /* -N repeats the sweep within one run */
        for (size_t k = 0; k < i; k++)
          cycle += s->rows[k].size == r->size && s->rows[k].m[p].present &&
                   !strcmp(s->rows[k].type, r->type) && !strcmp(s->rows[k].redop, r->redop) &&
                   !strcmp(s->rows[k].root, r->root);
        json_array_append_new(records,
                              sample_of(g, s, r, p, rigor_import_run_index(&run), variant, cycle));
        samples++;
      }
      if (!samples) continue;
      char label[256];
      variant_label(g, t, p, label, sizeof label);
      run.label = label;
      if (!s->complete) {
        run.status = "failed";
        run.reason = "the output stops before nccl-tests' summary: the binary did not finish";
      }
      run.identity = json_deep_copy(s->run_detail);
      json_object_set_new(run.identity, "source", json_sprintf("%s:%zu", s->path, s->line));
      json_array_append_new(records, rigor_import_run_record(&run));
    }
}

static int add_experiment(group_t *g, json_t *files, json_t *records, char *err, size_t errlen) {
  survey(g);
  int rc = check_same_settings(g, err, errlen);
  if (rc) return rc;
  json_t *my_files = json_array(), *notes = json_array();
  for (size_t i = 0; i < g->n; i++) {
    json_t *f = json_object_get(files, g->sections[i]->path);
    bool known = false;
    size_t k;
    json_t *v;
    json_array_foreach(my_files, k, v) known = known || json_equal(v, f);
    if (!known) json_array_append(my_files, f);
  }
  for (size_t k = 0; nccl_notes[k]; k++)
    json_array_append_new(notes, json_string(nccl_notes[k]));
  json_t *settings = settings_of(g), *axes = axes_of(g), *variants = variants_of(g);
  rigor_import_experiment_t x = {
      .name = g->name,
      .tool = "nccl-tests",
      .version = g->sections[0]->version[0] ? g->sections[0]->version : NULL,
      .files = my_files,
      .settings = settings,
      .axes = axes,
      .variants = variants,
      .blocks = (uint32_t)g->n,
      .identity = g->sections[0]->identity,
      .notes = notes,
  };
  json_array_append_new(records, rigor_import_experiment_record(&x));
  json_decref(my_files), json_decref(notes), json_decref(settings), json_decref(axes);
  json_decref(variants);
  for (size_t b = 0; b < g->n; b++)
    add_runs(g, b, records);
  return 0;
}

int rigor_import_nccl_tests(const char *const *paths, size_t n, json_t *records, char *err,
                            size_t errlen) {
  nccl_section_t *all = NULL;
  size_t n_all = 0;
  int rc = 0;
  json_t *files = json_object(); /* path -> {file, sha256} */
  for (size_t i = 0; !rc && i < n; i++) {
    rc = read_file(paths[i], &all, &n_all, err, errlen);
    json_t *f = rc ? NULL : rigor_import_file_entry(paths[i], err, errlen);
    if (!rc && !f) rc = RIGOR_EINVAL;
    if (f) json_object_set_new(files, paths[i], f);
  }
  char(*names)[128] = calloc(n_all ? n_all : 1, sizeof *names);
  nccl_section_t **members = calloc(n_all ? n_all : 1, sizeof *members);
  bool *done = calloc(n_all ? n_all : 1, sizeof *done);
  if (!rc && (!names || !members || !done)) {
    snprintf(err, errlen, "out of memory");
    rc = RIGOR_ENOMEM;
  }
  for (size_t i = 0; !rc && i < n_all; i++)
    experiment_of(&all[i], names[i], sizeof names[i]);
  for (size_t i = 0; !rc && i < n_all; i++) {
    if (done[i]) continue;
    group_t g = {.name = names[i], .sections = members};
    for (size_t k = i; k < n_all; k++)
      if (!done[k] && strcmp(names[k], names[i]) == 0) {
        members[g.n++] = &all[k];
        done[k] = true;
      }
    rc = add_experiment(&g, files, records, err, errlen);
    json_decref(g.tuples), json_decref(g.sizes);
  }
  free(names), free(members), free(done);
  for (size_t i = 0; i < n_all; i++)
    nccl_section_free(&all[i]);
  free(all);
  json_decref(files);
  return rc;
}
