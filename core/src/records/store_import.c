#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "clock.h"
#include "digest.h"
#include "errors.h"
#include "reader.h"
#include "rigor/plugin.h"
#include "store_internal.h"

/* Samples go in as multi-row inserts: one statement per run costs a server one round trip where
 * a statement per sample would cost thousands. */
#define SAMPLE_BATCH 64
#define SAMPLE_COLS  8

/* A file is read three times, each time as a stream, so that memory holds what the file has per
 * experiment and per run, never its samples: the first read checks it and groups the runs; the
 * second gives each run its key (its experiment record, its run record and its samples, in file
 * order); the third, inside the transaction, stores the new runs' samples. */

typedef struct exp_group {
  char *name;
  json_t *rec;
  size_t line;
  char key[65];
  long long id;
} exp_group_t;

typedef struct run_group {
  char *experiment;
  json_int_t run, attempt;
  char *record; /* the run record's text; NULL: an attempt without a run record */
  size_t line;
  size_t n_samples; /* counted by the first read */
  size_t seen;      /* counted again by a later read */
  rigor_sha256_t *digest;
  char key[65];
  long long id; /* the stored run, when this import adds it */
} run_group_t;

typedef struct sample_row {
  char run_id[32], seq[32], cycle[32], point[32], time_s[32];
  bool has_time;
  char *point_label, *status, *text;
} sample_row_t;

typedef struct import {
  const char *path;
  exp_group_t *exps;
  size_t n_exps;
  run_group_t *runs;
  size_t n_runs, cap_runs;
  json_t *run_index; /* "experiment\x1frun\x1fattempt" -> index into runs */
  size_t n_records;
  char *first_error; /* the first record the first read refuses, worded */
  int failed;        /* RIGOR_ENOMEM and the like: stops a read */
  struct writer *w;  /* the third read's */
  sample_row_t batch[SAMPLE_BATCH];
  size_t n_batch;
} import_t;

/* Where the cut last line of a half-written file starts and ends. */
static void cut_line(const char *path, size_t *line, size_t *col) {
  FILE *f = fopen(path, "rb");
  *line = 1, *col = 1;
  if (!f) return;
  int c, prev = '\n';
  size_t n = 1, len = 0;
  while ((c = fgetc(f)) != EOF) {
    if (prev == '\n' && c != '\n') len = 0;
    if (c == '\n')
      n++;
    else
      len++;
    prev = c;
  }
  fclose(f);
  *line = prev == '\n' ? n - 1 : n;
  *col = len + 1;
}

static bool is_int(const json_t *rec, const char *key) {
  return json_is_integer(json_object_get(rec, key));
}

static char *dump(const json_t *rec) {
  return json_dumps(rec, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* The first refusal in file order is the one worded; the read goes on, so that a malformed line
 * further on, or a cut last line, is what is said instead, as when the file is read whole. */
static int refuse(import_t *im, size_t line, const char *what, const char *detail) {
  if (im->first_error) return 0;
  char text[1400];
  snprintf(text, sizeof text, "%s:%zu:1: %s%s; nothing was stored", im->path, line, what,
           detail ? detail : "");
  im->first_error = strdup(text);
  return im->first_error ? 0 : RIGOR_ENOMEM;
}

static exp_group_t *find_exp(import_t *im, const char *name) {
  for (size_t i = 0; name && i < im->n_exps; i++)
    if (strcmp(im->exps[i].name, name) == 0) return &im->exps[i];
  return NULL;
}

static void run_index_key(char *key, size_t len, const char *exp, json_int_t run,
                          json_int_t attempt) {
  snprintf(key, len, "%s\x1f%lld\x1f%lld", exp ? exp : "", (long long)run, (long long)attempt);
}

static run_group_t *find_run(import_t *im, const json_t *rec) {
  char key[512];
  run_index_key(key, sizeof key, json_string_value(json_object_get(rec, "experiment")),
                json_integer_value(json_object_get(rec, "run")),
                json_integer_value(json_object_get(rec, "attempt")));
  json_t *at = json_object_get(im->run_index, key);
  return at ? &im->runs[json_integer_value(at)] : NULL;
}

static run_group_t *run_group(import_t *im, const json_t *rec) {
  run_group_t *g = find_run(im, rec);
  if (g) return g;
  if (im->n_runs == im->cap_runs) {
    size_t cap = im->cap_runs ? 2 * im->cap_runs : 64;
    run_group_t *runs = realloc(im->runs, cap * sizeof *runs);
    if (!runs) return NULL;
    im->runs = runs, im->cap_runs = cap;
  }
  const char *exp = json_string_value(json_object_get(rec, "experiment"));
  json_int_t run = json_integer_value(json_object_get(rec, "run"));
  json_int_t attempt = json_integer_value(json_object_get(rec, "attempt"));
  char key[512];
  run_index_key(key, sizeof key, exp, run, attempt);
  g = &im->runs[im->n_runs];
  *g = (run_group_t){.experiment = strdup(exp ? exp : ""), .run = run, .attempt = attempt};
  if (!g->experiment ||
      json_object_set_new(im->run_index, key, json_integer((json_int_t)im->n_runs)))
    return NULL;
  im->n_runs++;
  return g;
}

static int add_experiment(import_t *im, json_t *rec, size_t line) {
  const char *name = json_string_value(json_object_get(rec, "experiment"));
  const char *hash = json_string_value(json_object_get(rec, "hash"));
  if (!hash || !hash[0]) return refuse(im, line, "experiment record without a \"hash\"", NULL);
  if (find_exp(im, name)) return 0; /* readers keep the first, as rigor report does */
  exp_group_t *exps = realloc(im->exps, (im->n_exps + 1) * sizeof *exps);
  if (!exps) return RIGOR_ENOMEM;
  im->exps = exps;
  char *copy = strdup(name ? name : "");
  if (!copy) return RIGOR_ENOMEM;
  im->exps[im->n_exps++] = (exp_group_t){.name = copy, .rec = json_incref(rec), .line = line};
  return 0;
}

static int add_run_or_sample(import_t *im, json_t *rec, size_t line, bool is_run) {
  if (!is_int(rec, "run") || !is_int(rec, "attempt"))
    return refuse(im, line, is_run ? "run" : "sample",
                  " record without integer \"run\" and \"attempt\"");
  if (!json_is_string(json_object_get(rec, "status")))
    return refuse(im, line, is_run ? "run" : "sample", " record without a \"status\"");
  if (!is_run && (!is_int(rec, "cycle") || !is_int(rec, "point")))
    return refuse(im, line, "sample record without integer \"cycle\" and \"point\"", NULL);
  const json_t *t = json_object_get(rec, "time_s");
  if (!is_run && t && !json_is_number(t) && !json_is_null(t))
    return refuse(im, line, "sample record whose \"time_s\" is not a number", NULL);
  if (im->first_error) return 0; /* refused already: only looking for a worse fault further on */
  run_group_t *g = run_group(im, rec);
  if (!g) return RIGOR_ENOMEM;
  if (!is_run) {
    g->n_samples++;
    return 0;
  }
  if (g->record) return refuse(im, line, "a second run record for the same run and attempt", NULL);
  if (!(g->record = dump(rec))) return RIGOR_ENOMEM;
  g->line = line;
  return 0;
}

/* The first read. */
static int on_check(void *arg, json_t *rec, const char *type, size_t line) {
  import_t *im = arg;
  im->n_records++;
  int rc = 0;
  if (strcmp(type, "experiment") == 0)
    rc = add_experiment(im, rec, line);
  else if (strcmp(type, "run") == 0 || strcmp(type, "sample") == 0)
    rc = add_run_or_sample(im, rec, line, strcmp(type, "run") == 0);
  return rc;
}

static int orphan_runs(import_t *im) {
  for (size_t r = 0; !im->first_error && r < im->n_runs; r++) {
    const run_group_t *g = &im->runs[r];
    if (g->record && !find_exp(im, g->experiment)) {
      int rc =
          refuse(im, g->line,
                 "run record of an experiment that has no experiment record in this file", NULL);
      if (rc) return rc;
    }
  }
  return 0;
}

static void free_batch(import_t *im) {
  for (size_t i = 0; i < im->n_batch; i++) {
    free(im->batch[i].point_label);
    free(im->batch[i].status);
    free(im->batch[i].text);
  }
  im->n_batch = 0;
}

static void free_import(import_t *im) {
  for (size_t r = 0; r < im->n_runs; r++) {
    free(im->runs[r].experiment);
    free(im->runs[r].record);
    rigor_sha256_free(im->runs[r].digest);
  }
  free(im->runs);
  for (size_t e = 0; e < im->n_exps; e++) {
    free(im->exps[e].name);
    json_decref(im->exps[e].rec);
  }
  free(im->exps);
  json_decref(im->run_index);
  free(im->first_error);
  free_batch(im);
}

/* ---- keys: the second read ------------------------------------------------------------------ */

static void feed_line(rigor_sha256_t *h, const char *text) {
  rigor_sha256_update(h, text, strlen(text));
  rigor_sha256_update(h, "\n", 1);
}

/* Same experiment record, same run record, same samples: the same run. The key is the digest of
 * their texts (the records as stored: jansson's compact form, the file's member order), a line
 * each, the experiment record's key first, then the run record, then the samples in file order. */
static int key_begin(import_t *im, run_group_t *g) {
  if (!(g->digest = rigor_sha256_begin())) return RIGOR_ENOMEM;
  feed_line(g->digest, find_exp(im, g->experiment)->key);
  feed_line(g->digest, g->record);
  if (g->n_samples == 0) {
    rigor_sha256_end(g->digest, g->key);
    g->digest = NULL;
  }
  return 0;
}

/* A file that reads otherwise than it did the first time has changed while it was imported. */
static int changed(import_t *im) {
  free(im->first_error);
  char text[1200];
  snprintf(text, sizeof text,
           "%s: the file changed while it was being imported; nothing was stored", im->path);
  im->first_error = strdup(text);
  return RIGOR_EINVAL;
}

static int on_key(void *arg, json_t *rec, const char *type, size_t line) {
  import_t *im = arg;
  (void)line;
  if (strcmp(type, "sample") != 0) return 0;
  run_group_t *g = find_run(im, rec);
  if (!g || g->seen >= g->n_samples) return changed(im);
  g->seen++;
  if (!g->record) return 0;
  char *text = dump(rec);
  if (!text) return RIGOR_ENOMEM;
  feed_line(g->digest, text);
  free(text);
  if (g->seen == g->n_samples) {
    rigor_sha256_end(g->digest, g->key);
    g->digest = NULL;
  }
  return 0;
}

/* ---- writing: the third read, in the transaction -------------------------------------------- */

typedef struct writer {
  rigor_store_t *s;
  const char *import_id;
  rigor_store_import_result_t *res;
} writer_t;

static int returned_id(void *ctx, int n, const char *const *v) {
  long long *id = ctx;
  if (n > 0 && v[0]) *id = strtoll(v[0], NULL, 10);
  return 0;
}

static int store_experiment(writer_t *w, exp_group_t *e) {
  char *record = dump(e->rec), *identity = dump(json_object_get(e->rec, "identity"));
  const char *p[] = {e->key,
                     e->name,
                     json_string_value(json_object_get(e->rec, "hash")),
                     json_string_value(json_object_get(e->rec, "created")),
                     w->import_id,
                     identity ? identity : "null",
                     record};
  e->id = 0;
  int rc = record ? w->s->ops->exec(w->s,
                                    "INSERT INTO experiments (record_key, name, hash, created, "
                                    "import_id, identity, record) VALUES ($1, $2, $3, $4, $5, $6, "
                                    "$7) ON CONFLICT (record_key) DO NOTHING RETURNING id",
                                    7, p, returned_id, &e->id)
                  : RIGOR_ENOMEM;
  free(record), free(identity);
  if (rc) return rc;
  if (e->id) {
    w->res->experiments_added++;
    return 0;
  }
  return rigor__sql_int(w->s, "SELECT id FROM experiments WHERE record_key = $1", 1, p, &e->id);
}

/* Samples go in SAMPLE_BATCH rows a statement, in file order, the rows of any runs together. */
static int flush_samples(import_t *im) {
  if (!im->n_batch) return 0;
  char sql[SAMPLE_BATCH * 96 + 256];
  const char *p[SAMPLE_BATCH * SAMPLE_COLS];
  int used = snprintf(sql, sizeof sql,
                      "INSERT INTO samples (run_id, seq, cycle, point, "
                      "point_label, status, time_s, record) VALUES ");
  for (size_t r = 0; r < im->n_batch; r++) {
    size_t b = r * SAMPLE_COLS;
    used += snprintf(sql + used, sizeof sql - (size_t)used,
                     "%s($%zu, $%zu, $%zu, $%zu, $%zu, $%zu, $%zu, $%zu)", r ? ", " : "", b + 1,
                     b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8);
    const sample_row_t *row = &im->batch[r];
    const char *v[SAMPLE_COLS] = {row->run_id,
                                  row->seq,
                                  row->cycle,
                                  row->point,
                                  row->point_label,
                                  row->status,
                                  row->has_time ? row->time_s : NULL,
                                  row->text};
    memcpy(&p[b], v, sizeof v);
  }
  int rc = rigor__sql(im->w->s, sql, (int)(im->n_batch * SAMPLE_COLS), p);
  if (!rc) im->w->res->samples_added += im->n_batch;
  free_batch(im);
  return rc;
}

static char *dup_or_null(const char *s) {
  return s ? strdup(s) : NULL;
}

static int on_store(void *arg, json_t *rec, const char *type, size_t line) {
  import_t *im = arg;
  (void)line;
  if (strcmp(type, "sample") != 0) return 0;
  run_group_t *g = find_run(im, rec);
  if (!g || g->seen >= g->n_samples) return changed(im);
  size_t seq = g->seen++;
  if (!g->id) return 0;
  sample_row_t *row = &im->batch[im->n_batch];
  *row = (sample_row_t){0};
  const json_t *t = json_object_get(rec, "time_s");
  snprintf(row->run_id, sizeof row->run_id, "%lld", g->id);
  snprintf(row->seq, sizeof row->seq, "%zu", seq);
  snprintf(row->cycle, sizeof row->cycle, "%lld",
           (long long)json_integer_value(json_object_get(rec, "cycle")));
  snprintf(row->point, sizeof row->point, "%lld",
           (long long)json_integer_value(json_object_get(rec, "point")));
  snprintf(row->time_s, sizeof row->time_s, "%.17g", json_number_value(t));
  row->has_time = json_is_number(t);
  const char *label = json_string_value(json_object_get(rec, "point_label"));
  row->point_label = dup_or_null(label);
  row->status = dup_or_null(json_string_value(json_object_get(rec, "status")));
  row->text = dump(rec);
  im->n_batch++;
  if ((label && !row->point_label) || !row->status || !row->text) return RIGOR_ENOMEM;
  return im->n_batch == SAMPLE_BATCH ? flush_samples(im) : 0;
}

static int store_run(writer_t *w, import_t *im, run_group_t *g) {
  const exp_group_t *e = find_exp(im, g->experiment);
  json_error_t jerr;
  json_t *rec = json_loads(g->record, 0, &jerr);
  if (!rec) return RIGOR_ENOMEM;
  char exp_id[32], run[32], attempt[32], variant[32];
  snprintf(exp_id, sizeof exp_id, "%lld", e->id);
  snprintf(run, sizeof run, "%lld", (long long)g->run);
  snprintf(attempt, sizeof attempt, "%lld", (long long)g->attempt);
  const json_t *v = json_object_get(rec, "variant");
  snprintf(variant, sizeof variant, "%lld", (long long)json_integer_value(v));
  const char *p[] = {g->key,
                     exp_id,
                     w->import_id,
                     run,
                     attempt,
                     json_is_integer(v) ? variant : NULL,
                     json_string_value(json_object_get(rec, "label")),
                     json_string_value(json_object_get(rec, "status")),
                     json_string_value(json_object_get(rec, "start")),
                     json_string_value(json_object_get(rec, "end")),
                     g->record};
  g->id = 0;
  int rc = w->s->ops->exec(w->s,
                           "INSERT INTO runs (run_key, experiment_id, import_id, run, attempt, "
                           "variant, label, status, started, finished, record) VALUES ($1, $2, "
                           "$3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (run_key) DO "
                           "NOTHING RETURNING id",
                           11, p, returned_id, &g->id);
  json_decref(rec);
  if (!rc && !g->id) w->res->runs_present++;
  if (!rc && g->id) w->res->runs_added++;
  return rc;
}

static int store_import_row(writer_t *w, const import_t *im, const rigor_store_import_opts_t *o,
                            long long *id) {
  char sha[65] = "", now[32], dirty[4];
  if (rigor_file_sha256(im->path, sha)) return RIGOR_EIO;
  rigor_time_iso(now);
  snprintf(dirty, sizeof dirty, "%d", o->dirty > 0);
  const char *p[] = {o->source ? o->source : im->path, sha, o->commit, o->commit_date, o->branch,
                     o->dirty < 0 ? NULL : dirty,      now};
  return w->s->ops->exec(w->s,
                         "INSERT INTO imports (source, source_sha256, commit_sha, commit_date, "
                         "branch, dirty, imported_at) VALUES ($1, $2, $3, $4, $5, $6, $7) "
                         "RETURNING id",
                         7, p, returned_id, id);
}

static int store_tags(writer_t *w, const rigor_store_import_opts_t *o) {
  int rc = 0;
  for (size_t i = 0; !rc && i < o->n_tags; i++) {
    const char *eq = strchr(o->tags[i], '=');
    char key[256];
    snprintf(key, sizeof key, "%.*s", (int)(eq - o->tags[i]), o->tags[i]);
    const char *p[] = {w->import_id, key, eq + 1};
    rc = rigor__sql(w->s, "INSERT INTO import_tags (import_id, tag, value) VALUES ($1, $2, $3)", 3,
                    p);
  }
  return rc;
}

static int write_all(writer_t *w, import_t *im, const rigor_store_import_opts_t *o, long long *id,
                     char *err, size_t errlen) {
  int rc = store_import_row(w, im, o, id);
  char import_id[32];
  snprintf(import_id, sizeof import_id, "%lld", *id);
  w->import_id = import_id;
  if (!rc) rc = store_tags(w, o);
  for (size_t i = 0; !rc && i < im->n_exps; i++)
    rc = store_experiment(w, &im->exps[i]);
  bool samples = false;
  for (size_t r = 0; !rc && r < im->n_runs; r++) {
    run_group_t *g = &im->runs[r];
    g->seen = 0;
    if (g->record) {
      rc = store_run(w, im, g);
      samples |= g->id && g->n_samples;
    } else {
      w->res->samples_unstored += g->n_samples;
    }
  }
  if (!rc && samples) {
    im->w = w;
    rigor_results_callbacks_t cb = {.record = on_store, .arg = im, .whole_records = true};
    bool truncated = false;
    rc = rigor_results_read(im->path, &cb, &truncated, err, errlen);
    if (!rc) rc = flush_samples(im);
    for (size_t r = 0; !rc && r < im->n_runs; r++)
      if (im->runs[r].seen != im->runs[r].n_samples) rc = changed(im);
  }
  if (rc || (!w->res->experiments_added && !w->res->runs_added)) return rc;
  char e[32], r[32], s[32];
  snprintf(e, sizeof e, "%zu", w->res->experiments_added);
  snprintf(r, sizeof r, "%zu", w->res->runs_added);
  snprintf(s, sizeof s, "%zu", w->res->samples_added);
  const char *p[] = {e, r, s, import_id};
  return rigor__sql(w->s,
                    "UPDATE imports SET experiments_added = $1, runs_added = $2, "
                    "samples_added = $3 WHERE id = $4",
                    4, p);
}

static int check_tags(const rigor_store_import_opts_t *o, char *err, size_t errlen) {
  for (size_t i = 0; i < o->n_tags; i++) {
    const char *eq = strchr(o->tags[i], '=');
    if (!eq || eq == o->tags[i] || eq - o->tags[i] > 200) {
      snprintf(err, errlen, "tag '%s' is not KEY=VALUE", o->tags[i]);
      return RIGOR_EINVAL;
    }
    for (size_t j = 0; j < i; j++)
      if (strncmp(o->tags[j], o->tags[i], (size_t)(eq - o->tags[i]) + 1) == 0) {
        snprintf(err, errlen, "tag '%.*s' is given twice", (int)(eq - o->tags[i]), o->tags[i]);
        return RIGOR_EINVAL;
      }
  }
  return 0;
}

/* The words for a refusal that is no fault of the file. */
static void say_resource(int rc, const char *path, char *err, size_t errlen) {
  if (rc == RIGOR_ENOMEM)
    snprintf(err, errlen, "%s: out of memory while importing; nothing was stored", path);
  else
    snprintf(err, errlen, "%s: %s; nothing was stored", path, rigor_strerror(rc));
}

/* The first and second reads: the file checked and grouped, every run given its key. */
static int read_file(import_t *im, char *err, size_t errlen) {
  rigor_results_callbacks_t cb = {.record = on_check, .arg = im, .whole_records = true};
  bool truncated = false;
  char why[1024] = "";
  int rc = rigor_results_read(im->path, &cb, &truncated, why, sizeof why);
  if (rc) {
    if (why[0])
      snprintf(err, errlen, "%s; nothing was stored", why);
    else
      say_resource(rc, im->path, err, errlen);
    return rc;
  }
  if (truncated) {
    size_t line, col;
    cut_line(im->path, &line, &col);
    snprintf(err, errlen,
             "%s:%zu:%zu: the last line is cut short (a half-written file); nothing was stored: "
             "import it when the run has finished, or remove the cut line",
             im->path, line, col);
    return RIGOR_EINVAL;
  }
  if (im->n_records == 0) {
    snprintf(err, errlen, "%s: no records (empty file); nothing was stored", im->path);
    return RIGOR_EINVAL;
  }
  if ((rc = orphan_runs(im))) {
    say_resource(rc, im->path, err, errlen);
    return rc;
  }
  if (im->first_error) {
    snprintf(err, errlen, "%s", im->first_error);
    return RIGOR_EINVAL;
  }
  for (size_t e = 0; !rc && e < im->n_exps; e++)
    rc = rigor_canonical_sha256(im->exps[e].rec, im->exps[e].key);
  bool samples = false;
  for (size_t r = 0; !rc && r < im->n_runs; r++) {
    run_group_t *g = &im->runs[r];
    if (g->record) rc = key_begin(im, g);
    samples |= g->record && g->n_samples;
  }
  if (!rc && samples) {
    cb.record = on_key;
    why[0] = '\0';
    rc = rigor_results_read(im->path, &cb, &truncated, why, sizeof why);
    for (size_t r = 0; !rc && r < im->n_runs; r++)
      if (im->runs[r].seen != im->runs[r].n_samples) rc = changed(im);
    if (rc && !why[0] && im->first_error) snprintf(why, sizeof why, "%s", im->first_error);
    if (rc && why[0]) {
      snprintf(err, errlen, "%s%s", why,
               strstr(why, "nothing was stored") ? "" : "; nothing was stored");
      return rc;
    }
  }
  if (rc) say_resource(rc, im->path, err, errlen);
  return rc;
}

int rigor_store_import(rigor_store_t *s, const char *path, const rigor_store_import_opts_t *o,
                       rigor_store_import_result_t *res, char *err, size_t errlen) {
  if (!s || !path || !o || !res) return RIGOR_EINVAL;
  memset(res, 0, sizeof *res);
  if (errlen) err[0] = '\0';
  int rc = check_tags(o, err, errlen);
  if (rc) return rc;
  import_t im = {.path = path, .run_index = json_object()};
  if (!im.run_index) rc = RIGOR_ENOMEM;
  if (rc || (rc = read_file(&im, err, errlen))) {
    if (!err[0]) say_resource(rc, path, err, errlen);
    free_import(&im);
    return rc;
  }
  writer_t w = {.s = s, .res = res};
  long long id = 0;
  char why[1024] = "";
  rc = rigor__begin(s);
  if (!rc) rc = write_all(&w, &im, o, &id, why, sizeof why);
  if (!rc && (res->experiments_added || res->runs_added)) {
    rc = rigor__commit(s);
    res->import_id = rc ? 0 : id;
    if (rc) {
      rigor__store_fail(s, rc, path, err, errlen);
      rigor__rollback(s);
      memset(res, 0, sizeof *res);
    }
  } else {
    if (rc && (why[0] || im.first_error))
      snprintf(err, errlen, "%s%s", why[0] ? why : im.first_error,
               why[0] ? "; nothing was stored" : "");
    else if (rc == RIGOR_ENOMEM)
      say_resource(rc, path, err, errlen);
    else if (rc) {
      char what[1100];
      snprintf(what, sizeof what, "%s: importing", path);
      rigor__store_fail(s, rc, what, err, errlen);
    }
    rigor__rollback(s);
    if (rc) memset(res, 0, sizeof *res);
  }
  if (rc && !err[0]) rigor__store_fail(s, rc, path, err, errlen);
  free_import(&im);
  return rc;
}
