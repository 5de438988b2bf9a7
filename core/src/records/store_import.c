#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "clock.h"
#include "digest.h"
#include "reader.h"
#include "rigor/plugin.h"
#include "store_internal.h"

/* Samples go in as multi-row inserts: one statement per run costs a server one round trip where
 * a statement per sample would cost thousands. */
#define SAMPLE_BATCH 64
#define SAMPLE_COLS  8

typedef struct exp_group {
  const char *name;
  json_t *rec;
  size_t index; /* of the record in the file */
  char key[65];
  long long id;
} exp_group_t;

typedef struct run_group {
  const char *experiment;
  json_int_t run, attempt;
  json_t *rec; /* NULL: an attempt without a run record */
  size_t index;
  json_t *samples; /* in file order */
} run_group_t;

typedef struct import {
  const char *path;
  json_t *records;
  exp_group_t *exps;
  size_t n_exps;
  run_group_t *runs;
  size_t n_runs;
  json_t *run_index; /* "experiment\x1frun\x1fattempt" -> index into runs */
} import_t;

/* The line a record came from: the reader skips blank lines, so the k-th record is the k-th line
 * with something on it. Only read again to word an error. */
static size_t record_line(const char *path, size_t index) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char *buf = NULL;
  size_t cap = 0, line = 0, seen = 0, found = 0;
  ssize_t len;
  while (!found && (len = getline(&buf, &cap, f)) >= 0) {
    line++;
    bool blank = true;
    for (ssize_t i = 0; i < len && blank; i++)
      blank = buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n';
    if (!blank && seen++ == index) found = line;
  }
  free(buf);
  fclose(f);
  return found;
}

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

static int refuse(const import_t *im, size_t index, char *err, size_t errlen, const char *what,
                  const char *detail) {
  snprintf(err, errlen, "%s:%zu:1: %s%s; nothing was stored", im->path,
           record_line(im->path, index), what, detail ? detail : "");
  return RIGOR_EINVAL;
}

static bool is_int(const json_t *rec, const char *key) {
  return json_is_integer(json_object_get(rec, key));
}

static exp_group_t *find_exp(import_t *im, const char *name) {
  for (size_t i = 0; i < im->n_exps; i++)
    if (strcmp(im->exps[i].name, name) == 0) return &im->exps[i];
  return NULL;
}

static run_group_t *run_group(import_t *im, const char *exp, json_int_t run, json_int_t attempt) {
  char key[512];
  snprintf(key, sizeof key, "%s\x1f%lld\x1f%lld", exp, (long long)run, (long long)attempt);
  json_t *at = json_object_get(im->run_index, key);
  if (at) return &im->runs[json_integer_value(at)];
  run_group_t *runs = realloc(im->runs, (im->n_runs + 1) * sizeof *runs);
  if (!runs) return NULL;
  im->runs = runs;
  run_group_t *g = &im->runs[im->n_runs];
  *g = (run_group_t){.experiment = exp, .run = run, .attempt = attempt, .samples = json_array()};
  json_object_set_new(im->run_index, key, json_integer((json_int_t)im->n_runs++));
  return g;
}

static int add_experiment(import_t *im, json_t *rec, size_t i, char *err, size_t errlen) {
  const char *name = json_string_value(json_object_get(rec, "experiment"));
  const char *hash = json_string_value(json_object_get(rec, "hash"));
  if (!hash || !hash[0])
    return refuse(im, i, err, errlen, "experiment record without a \"hash\"", NULL);
  if (find_exp(im, name)) return 0; /* readers keep the first, as rigor report does */
  exp_group_t *exps = realloc(im->exps, (im->n_exps + 1) * sizeof *exps);
  if (!exps) return RIGOR_ENOMEM;
  im->exps = exps;
  im->exps[im->n_exps++] = (exp_group_t){.name = name, .rec = rec, .index = i};
  return 0;
}

static int add_run_or_sample(import_t *im, json_t *rec, size_t i, bool is_run, char *err,
                             size_t errlen) {
  const char *exp = json_string_value(json_object_get(rec, "experiment"));
  if (!is_int(rec, "run") || !is_int(rec, "attempt"))
    return refuse(im, i, err, errlen, is_run ? "run" : "sample",
                  " record without integer \"run\" and \"attempt\"");
  if (!json_is_string(json_object_get(rec, "status")))
    return refuse(im, i, err, errlen, is_run ? "run" : "sample", " record without a \"status\"");
  if (!is_run && (!is_int(rec, "cycle") || !is_int(rec, "point")))
    return refuse(im, i, err, errlen, "sample record without integer \"cycle\" and \"point\"",
                  NULL);
  const json_t *t = json_object_get(rec, "time_s");
  if (!is_run && t && !json_is_number(t) && !json_is_null(t))
    return refuse(im, i, err, errlen, "sample record whose \"time_s\" is not a number", NULL);
  run_group_t *g = run_group(im, exp, json_integer_value(json_object_get(rec, "run")),
                             json_integer_value(json_object_get(rec, "attempt")));
  if (!g) return RIGOR_ENOMEM;
  if (!is_run) return json_array_append(g->samples, rec) ? RIGOR_ENOMEM : 0;
  if (g->rec)
    return refuse(im, i, err, errlen, "a second run record for the same run and attempt", NULL);
  g->rec = rec;
  g->index = i;
  return 0;
}

static int group(import_t *im, char *err, size_t errlen) {
  size_t i;
  json_t *rec;
  json_array_foreach(im->records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    int rc = 0;
    if (strcmp(type, "experiment") == 0)
      rc = add_experiment(im, rec, i, err, errlen);
    else if (strcmp(type, "run") == 0 || strcmp(type, "sample") == 0)
      rc = add_run_or_sample(im, rec, i, strcmp(type, "run") == 0, err, errlen);
    if (rc) return rc;
  }
  for (size_t r = 0; r < im->n_runs; r++) {
    const run_group_t *g = &im->runs[r];
    if (g->rec && !find_exp(im, g->experiment))
      return refuse(im, g->index, err, errlen,
                    "run record of an experiment that has no "
                    "experiment record in this file",
                    NULL);
  }
  return 0;
}

static void free_import(import_t *im) {
  for (size_t r = 0; r < im->n_runs; r++)
    json_decref(im->runs[r].samples);
  free(im->runs);
  free(im->exps);
  json_decref(im->run_index);
  json_decref(im->records);
}

/* ---- writing ------------------------------------------------------------------------------- */

typedef struct writer {
  rigor_store_t *s;
  const char *import_id;
  rigor_store_import_result_t *res;
} writer_t;

static char *dump(const json_t *rec) {
  return json_dumps(rec, JSON_COMPACT | JSON_ENCODE_ANY);
}

static int digest_of(const json_t *rec, char out[65]) {
  char *text = rigor_canonical_dump(rec);
  if (!text) return RIGOR_ENOMEM;
  rigor_sha256_hex(text, strlen(text), out);
  free(text);
  return 0;
}

static int returned_id(void *ctx, int n, const char *const *v) {
  long long *id = ctx;
  if (n > 0 && v[0]) *id = strtoll(v[0], NULL, 10);
  return 0;
}

static int store_experiment(writer_t *w, exp_group_t *e) {
  int rc = digest_of(e->rec, e->key);
  if (rc) return rc;
  char *record = dump(e->rec), *identity = dump(json_object_get(e->rec, "identity"));
  const char *p[] = {e->key,
                     e->name,
                     json_string_value(json_object_get(e->rec, "hash")),
                     json_string_value(json_object_get(e->rec, "created")),
                     w->import_id,
                     identity ? identity : "null",
                     record};
  e->id = 0;
  rc = record ? w->s->ops->exec(w->s,
                                "INSERT INTO experiments (record_key, name, hash, created, "
                                "import_id, identity, record) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                                " ON CONFLICT (record_key) DO NOTHING RETURNING id",
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

typedef struct text_buf {
  char *p;
  size_t len, cap;
} text_buf_t;

static int append_line(text_buf_t *b, const char *text) {
  size_t t = strlen(text);
  if (b->len + t + 2 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (b->len + t + 2 > cap)
      cap *= 2;
    char *grown = realloc(b->p, cap);
    if (!grown) return RIGOR_ENOMEM;
    b->p = grown, b->cap = cap;
  }
  memcpy(b->p + b->len, text, t);
  b->len += t;
  b->p[b->len++] = '\n';
  b->p[b->len] = '\0';
  return 0;
}

/* Same experiment record, same run record, same samples: the same run. The texts are the
 * records as stored (jansson's compact form, the file's member order). */
static int run_key(const exp_group_t *e, const char *run, char *const *samples, size_t n,
                   char out[65]) {
  text_buf_t b = {0};
  int rc = append_line(&b, e->key);
  if (!rc) rc = append_line(&b, run);
  for (size_t i = 0; !rc && i < n; i++)
    rc = append_line(&b, samples[i]);
  if (!rc) rigor_sha256_hex(b.p, b.len, out);
  free(b.p);
  return rc;
}

static int store_samples(writer_t *w, const char *run_id, const json_t *samples,
                         char *const *texts) {
  size_t n = json_array_size(samples);
  char sql[SAMPLE_BATCH * 96 + 256];
  const char *p[SAMPLE_BATCH * SAMPLE_COLS];
  char nums[SAMPLE_BATCH][4][32];
  int rc = 0;
  for (size_t first = 0; !rc && first < n; first += SAMPLE_BATCH) {
    size_t rows = n - first < SAMPLE_BATCH ? n - first : SAMPLE_BATCH;
    int used = snprintf(sql, sizeof sql,
                        "INSERT INTO samples (run_id, seq, cycle, point, "
                        "point_label, status, time_s, record) VALUES ");
    for (size_t r = 0; r < rows; r++) {
      size_t b = r * SAMPLE_COLS;
      used += snprintf(sql + used, sizeof sql - (size_t)used,
                       "%s($%zu, $%zu, $%zu, $%zu, $%zu, $%zu, $%zu, $%zu)", r ? ", " : "", b + 1,
                       b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8);
      const json_t *rec = json_array_get(samples, first + r);
      const json_t *t = json_object_get(rec, "time_s");
      snprintf(nums[r][0], sizeof nums[r][0], "%zu", first + r);
      snprintf(nums[r][1], sizeof nums[r][1], "%lld",
               (long long)json_integer_value(json_object_get(rec, "cycle")));
      snprintf(nums[r][2], sizeof nums[r][2], "%lld",
               (long long)json_integer_value(json_object_get(rec, "point")));
      snprintf(nums[r][3], sizeof nums[r][3], "%.17g", json_number_value(t));
      const char *row[SAMPLE_COLS] = {
          run_id,
          nums[r][0],
          nums[r][1],
          nums[r][2],
          json_string_value(json_object_get(rec, "point_label")),
          json_string_value(json_object_get(rec, "status")),
          json_is_number(t) ? nums[r][3] : NULL,
          texts[first + r],
      };
      memcpy(&p[b], row, sizeof row);
    }
    rc = rigor__sql(w->s, sql, (int)(rows * SAMPLE_COLS), p);
  }
  if (!rc) w->res->samples_added += n;
  return rc;
}

static void free_texts(char **texts, size_t n) {
  for (size_t i = 0; texts && i < n; i++)
    free(texts[i]);
  free(texts);
}

static int store_run(writer_t *w, const exp_group_t *e, const run_group_t *g) {
  size_t n = json_array_size(g->samples);
  char **texts = calloc(n ? n : 1, sizeof *texts);
  char *record = dump(g->rec);
  int rc = texts && record ? 0 : RIGOR_ENOMEM;
  for (size_t i = 0; !rc && i < n; i++)
    if (!(texts[i] = dump(json_array_get(g->samples, i)))) rc = RIGOR_ENOMEM;
  char key[65], exp_id[32], run[32], attempt[32], variant[32];
  if (!rc) rc = run_key(e, record, texts, n, key);
  if (rc) {
    free(record);
    free_texts(texts, n);
    return rc;
  }
  snprintf(exp_id, sizeof exp_id, "%lld", e->id);
  snprintf(run, sizeof run, "%lld", (long long)g->run);
  snprintf(attempt, sizeof attempt, "%lld", (long long)g->attempt);
  const json_t *v = json_object_get(g->rec, "variant");
  snprintf(variant, sizeof variant, "%lld", (long long)json_integer_value(v));
  const char *p[] = {key,
                     exp_id,
                     w->import_id,
                     run,
                     attempt,
                     json_is_integer(v) ? variant : NULL,
                     json_string_value(json_object_get(g->rec, "label")),
                     json_string_value(json_object_get(g->rec, "status")),
                     json_string_value(json_object_get(g->rec, "start")),
                     json_string_value(json_object_get(g->rec, "end")),
                     record};
  long long id = 0;
  rc = w->s->ops->exec(w->s,
                       "INSERT INTO runs (run_key, experiment_id, import_id, run, attempt, "
                       "variant, label, status, started, finished, record) VALUES ($1, $2, $3, "
                       "$4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (run_key) DO NOTHING "
                       "RETURNING id",
                       11, p, returned_id, &id);
  free(record);
  if (!rc && !id) w->res->runs_present++;
  if (!rc && id) {
    w->res->runs_added++;
    char run_id[32];
    snprintf(run_id, sizeof run_id, "%lld", id);
    rc = store_samples(w, run_id, g->samples, texts);
  }
  free_texts(texts, n);
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

static int write_all(writer_t *w, import_t *im, const rigor_store_import_opts_t *o, long long *id) {
  int rc = store_import_row(w, im, o, id);
  char import_id[32];
  snprintf(import_id, sizeof import_id, "%lld", *id);
  w->import_id = import_id;
  if (!rc) rc = store_tags(w, o);
  for (size_t i = 0; !rc && i < im->n_exps; i++)
    rc = store_experiment(w, &im->exps[i]);
  for (size_t r = 0; !rc && r < im->n_runs; r++) {
    const run_group_t *g = &im->runs[r];
    if (g->rec)
      rc = store_run(w, find_exp(im, g->experiment), g);
    else
      w->res->samples_unstored += json_array_size(g->samples);
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

int rigor_store_import(rigor_store_t *s, const char *path, const rigor_store_import_opts_t *o,
                       rigor_store_import_result_t *res, char *err, size_t errlen) {
  if (!s || !path || !o || !res) return RIGOR_EINVAL;
  memset(res, 0, sizeof *res);
  if (errlen) err[0] = '\0';
  int rc = check_tags(o, err, errlen);
  if (rc) return rc;
  import_t im = {.path = path, .run_index = json_object()};
  bool truncated = false;
  char why[1024];
  rc = rigor_results_load(path, &im.records, &truncated, why, sizeof why);
  if (rc) {
    snprintf(err, errlen, "%s; nothing was stored", why);
    free_import(&im);
    return rc;
  }
  if (truncated) {
    size_t line, col;
    cut_line(path, &line, &col);
    snprintf(err, errlen,
             "%s:%zu:%zu: the last line is cut short (a half-written file); nothing was stored: "
             "import it when the run has finished, or remove the cut line",
             path, line, col);
    free_import(&im);
    return RIGOR_EINVAL;
  }
  if (json_array_size(im.records) == 0) {
    snprintf(err, errlen, "%s: no records (empty file); nothing was stored", path);
    free_import(&im);
    return RIGOR_EINVAL;
  }
  if ((rc = group(&im, err, errlen))) {
    free_import(&im);
    return rc;
  }
  writer_t w = {.s = s, .res = res};
  long long id = 0;
  rc = rigor__begin(s);
  if (!rc) rc = write_all(&w, &im, o, &id);
  if (!rc && (res->experiments_added || res->runs_added)) {
    rc = rigor__commit(s);
    res->import_id = rc ? 0 : id;
    if (rc) {
      rigor__store_fail(s, rc, path, err, errlen);
      rigor__rollback(s);
      memset(res, 0, sizeof *res);
    }
  } else {
    if (rc) {
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
