#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "store_internal.h"

static char *dup_or_null(const char *s) {
  return s ? strdup(s) : NULL;
}

static json_t *text_or_null(const char *s) {
  return s ? json_string(s) : json_null();
}

/* ---- list ------------------------------------------------------------------------------------ */

static int list_import(void *ctx, int n, const char *const *v) {
  if (n < 11) return RIGOR_EIO;
  json_t *dirty = v[6] ? json_boolean(strtol(v[6], NULL, 10) != 0) : json_null();
  json_t *row =
      json_pack("{s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:{}, s:[], s:I, s:I, s:I}", "id",
                (json_int_t)strtoll(v[0], NULL, 10), "source", v[1], "sha256", v[2], "commit",
                text_or_null(v[3]), "commit_date", text_or_null(v[4]), "branch", text_or_null(v[5]),
                "dirty", dirty, "imported_at", v[7], "tags", "experiments", "experiments_added",
                (json_int_t)strtoll(v[8], NULL, 10), "runs", (json_int_t)strtoll(v[9], NULL, 10),
                "samples", (json_int_t)strtoll(v[10], NULL, 10));
  return row && json_array_append_new(ctx, row) == 0 ? 0 : RIGOR_ENOMEM;
}

static json_t *import_by_id(json_t *list, const char *id) {
  json_int_t want = strtoll(id, NULL, 10);
  size_t i;
  json_t *row;
  json_array_foreach(list, i, row) {
    if (json_integer_value(json_object_get(row, "id")) == want) return row;
  }
  return NULL;
}

static int list_tag(void *ctx, int n, const char *const *v) {
  json_t *row = n >= 3 ? import_by_id(ctx, v[0]) : NULL;
  if (row) json_object_set_new(json_object_get(row, "tags"), v[1], json_string(v[2]));
  return 0;
}

static int list_name(void *ctx, int n, const char *const *v) {
  json_t *row = n >= 2 ? import_by_id(ctx, v[0]) : NULL;
  if (row) json_array_append_new(json_object_get(row, "experiments"), json_string(v[1]));
  return 0;
}

int rigor_store_list(rigor_store_t *s, json_t **imports, char *err, size_t errlen) {
  json_t *list = json_array();
  int rc = s->ops->exec(s,
                        "SELECT id, source, source_sha256, commit_sha, commit_date, branch, dirty,"
                        " imported_at, experiments_added, runs_added, samples_added FROM imports"
                        " ORDER BY id",
                        0, NULL, list_import, list);
  if (!rc)
    rc = s->ops->exec(s, "SELECT import_id, tag, value FROM import_tags ORDER BY import_id, tag", 0,
                      NULL, list_tag, list);
  if (!rc)
    rc = s->ops->exec(s,
                      "SELECT DISTINCT r.import_id, e.name FROM runs r JOIN experiments e"
                      " ON e.id = r.experiment_id ORDER BY r.import_id, e.name",
                      0, NULL, list_name, list);
  if (rc) {
    json_decref(list);
    return rigor__store_fail(s, rc, "listing the imports", err, errlen);
  }
  *imports = list;
  return 0;
}

/* ---- records ----------------------------------------------------------------------------------
 */

typedef struct stored_run {
  long long id, experiment, import_id;
  char *record;
  char *name;      /* the experiment's */
  char *commit;    /* the import's, or NULL */
  size_t group;    /* index into selection.groups */
  json_t *samples; /* array of record texts */
} stored_run_t;

/* The runs of one experiment record brought by one commit (or, without a commit, one import):
 * what an exported file holds as one experiment. */
typedef struct run_group {
  long long experiment, import_id;
  const char *name, *commit;
  char *alias; /* the name in the exported file where it is not the stored one, else NULL */
} run_group_t;

typedef struct selection {
  stored_run_t *runs;
  size_t n, cap;
  size_t cursor; /* samples arrive ordered by run id: the run they belong to is found forward */
  run_group_t *groups;
  size_t n_groups;
  bool split; /* an export: runs kept apart by commit or import, and renamed where needed */
} selection_t;

static int take_run(void *ctx, int n, const char *const *v) {
  selection_t *sel = ctx;
  if (n < 6 || !v[2] || !v[4]) return RIGOR_EIO;
  if (sel->n == sel->cap) {
    size_t cap = sel->cap ? 2 * sel->cap : 64;
    stored_run_t *runs = realloc(sel->runs, cap * sizeof *runs);
    if (!runs) return RIGOR_ENOMEM;
    sel->runs = runs, sel->cap = cap;
  }
  stored_run_t *r = &sel->runs[sel->n++];
  *r = (stored_run_t){.id = strtoll(v[0], NULL, 10),
                      .experiment = strtoll(v[1], NULL, 10),
                      .record = strdup(v[2]),
                      .import_id = strtoll(v[3], NULL, 10),
                      .name = strdup(v[4]),
                      .commit = dup_or_null(v[5]),
                      .samples = json_array()};
  return r->record && r->name && (r->commit || !v[5]) && r->samples ? 0 : RIGOR_ENOMEM;
}

static int cmp_run_id(const void *a, const void *b) {
  const stored_run_t *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

static int take_sample(void *ctx, int n, const char *const *v) {
  selection_t *sel = ctx;
  if (n < 2) return RIGOR_EIO;
  long long id = strtoll(v[0], NULL, 10);
  while (sel->cursor < sel->n && sel->runs[sel->cursor].id < id)
    sel->cursor++;
  if (sel->cursor == sel->n || sel->runs[sel->cursor].id != id) return 0;
  return json_array_append_new(sel->runs[sel->cursor].samples, json_string(v[1])) ? RIGOR_ENOMEM
                                                                                  : 0;
}

/* The WHERE clause of a filter over runs r, experiments e and imports i, and its parameters. */
static void where(const rigor_store_filter_t *f, char *sql, size_t len, const char **p, int *n,
                  char *id_text, size_t id_len) {
  *n = 0;
  snprintf(sql, len, " WHERE 1 = 1");
  if (f && f->commit) {
    p[(*n)++] = f->commit;
    snprintf(sql + strlen(sql), len - strlen(sql), " AND i.commit_sha = $%d", *n);
  }
  if (f && f->import_id) {
    snprintf(id_text, id_len, "%lld", f->import_id);
    p[(*n)++] = id_text;
    snprintf(sql + strlen(sql), len - strlen(sql), " AND r.import_id = $%d", *n);
  }
  if (f && f->experiment) {
    p[(*n)++] = f->experiment;
    snprintf(sql + strlen(sql), len - strlen(sql), " AND e.name = $%d", *n);
  }
}

static void free_selection(selection_t *sel) {
  for (size_t i = 0; i < sel->n; i++) {
    free(sel->runs[i].record);
    free(sel->runs[i].name);
    free(sel->runs[i].commit);
    json_decref(sel->runs[i].samples);
  }
  free(sel->runs);
  for (size_t g = 0; g < sel->n_groups; g++)
    free(sel->groups[g].alias);
  free(sel->groups);
}

static bool same_text(const char *a, const char *b) {
  return a && b ? strcmp(a, b) == 0 : a == b;
}

static bool same_group(const run_group_t *g, const stored_run_t *r, bool split) {
  if (g->experiment != r->experiment) return false;
  return !split ||
         (r->commit ? same_text(g->commit, r->commit) : !g->commit && g->import_id == r->import_id);
}

/* Where one experiment name has more than one group, each is named NAME@COMMIT (the first 12
 * characters of the commit) or NAME@import-ID (an import without a commit); two experiment
 * records of one name at one commit add -e and the stored record's number. */
static int name_groups(selection_t *sel) {
  for (size_t i = 0; i < sel->n; i++) {
    stored_run_t *r = &sel->runs[i];
    size_t g = 0;
    while (g < sel->n_groups && !same_group(&sel->groups[g], r, sel->split))
      g++;
    if (g == sel->n_groups) {
      run_group_t *grown = realloc(sel->groups, (sel->n_groups + 1) * sizeof *grown);
      if (!grown) return RIGOR_ENOMEM;
      sel->groups = grown;
      grown[sel->n_groups++] = (run_group_t){.experiment = r->experiment,
                                             .import_id = r->import_id,
                                             .name = r->name,
                                             .commit = r->commit};
    }
    r->group = g;
  }
  for (size_t g = 0; sel->split && g < sel->n_groups; g++) {
    run_group_t *x = &sel->groups[g];
    bool shared = false, same_commit = false;
    for (size_t h = 0; h < sel->n_groups; h++) {
      const run_group_t *y = &sel->groups[h];
      if (h == g || strcmp(x->name, y->name) != 0) continue;
      shared = true;
      same_commit |= x->commit && same_text(x->commit, y->commit);
    }
    if (!shared) continue;
    char label[64], exp[32] = "";
    if (x->commit)
      snprintf(label, sizeof label, "%.12s", x->commit);
    else
      snprintf(label, sizeof label, "import-%lld", x->import_id);
    if (same_commit) snprintf(exp, sizeof exp, "-e%lld", x->experiment);
    size_t len = strlen(x->name) + strlen(label) + strlen(exp) + 2;
    if (!(x->alias = malloc(len))) return RIGOR_ENOMEM;
    snprintf(x->alias, len, "%s@%s%s", x->name, label, exp);
  }
  return 0;
}

static int select_runs(rigor_store_t *s, const rigor_store_filter_t *f, selection_t *sel) {
  char cond[256], id_text[32], sql[1024];
  const char *p[3];
  int n = 0;
  where(f, cond, sizeof cond, p, &n, id_text, sizeof id_text);
  snprintf(sql, sizeof sql,
           "SELECT r.id, r.experiment_id, r.record, r.import_id, e.name, i.commit_sha FROM runs r"
           " JOIN experiments e ON e.id = r.experiment_id JOIN imports i ON i.id = r.import_id%s"
           " ORDER BY r.id",
           cond);
  int rc = s->ops->exec(s, sql, n, p, take_run, sel);
  if (rc || sel->n == 0) return rc;
  qsort(sel->runs, sel->n, sizeof *sel->runs, cmp_run_id);
  if ((rc = name_groups(sel))) return rc;
  snprintf(sql, sizeof sql,
           "SELECT s.run_id, s.record FROM samples s JOIN runs r ON r.id = s.run_id"
           " JOIN experiments e ON e.id = r.experiment_id JOIN imports i ON i.id = r.import_id%s"
           " ORDER BY s.run_id, s.seq",
           cond);
  return s->ops->exec(s, sql, n, p, take_sample, sel);
}

typedef int (*emit_fn)(void *ctx, const char *record);

static int copy_text(void *ctx, int n, const char *const *v) {
  char **out = ctx;
  if (n < 1 || !v[0]) return RIGOR_EIO;
  *out = strdup(v[0]);
  return *out ? 0 : RIGOR_ENOMEM;
}

/* A record as stored, or under the group's name where the export renames it. */
static int emit_as(const run_group_t *g, const char *record, emit_fn emit, void *ctx) {
  if (!g->alias) return emit(ctx, record);
  json_error_t jerr;
  json_t *rec = json_loads(record, 0, &jerr);
  if (!rec) return RIGOR_EIO;
  char *text = NULL;
  int rc = json_object_set_new(rec, "experiment", json_string(g->alias)) ? RIGOR_ENOMEM : 0;
  if (!rc && !(text = json_dumps(rec, JSON_COMPACT))) rc = RIGOR_ENOMEM;
  json_decref(rec);
  if (!rc) rc = emit(ctx, text);
  free(text);
  return rc;
}

/* Each experiment record once per group, before its runs; each run's samples before its run
 * record, as a results file has them. Runs keep the order they were stored in. */
static int emit_selection(rigor_store_t *s, const selection_t *sel, emit_fn emit, void *ctx) {
  int rc = 0;
  for (size_t g = 0; !rc && g < sel->n_groups; g++) {
    const run_group_t *grp = &sel->groups[g];
    char id[32], *record = NULL;
    snprintf(id, sizeof id, "%lld", grp->experiment);
    const char *p[] = {id};
    rc = s->ops->exec(s, "SELECT record FROM experiments WHERE id = $1", 1, p, copy_text, &record);
    if (!rc) rc = emit_as(grp, record, emit, ctx);
    free(record);
    for (size_t j = 0; !rc && j < sel->n; j++) {
      if (sel->runs[j].group != g) continue;
      size_t k;
      json_t *text;
      json_array_foreach(sel->runs[j].samples, k, text) {
        if (!rc) rc = emit_as(grp, json_string_value(text), emit, ctx);
      }
      if (!rc) rc = emit_as(grp, sel->runs[j].record, emit, ctx);
    }
  }
  return rc;
}

static int emit_selected(rigor_store_t *s, const rigor_store_filter_t *f, bool split, emit_fn emit,
                         void *ctx, size_t *n_runs, char *err, size_t errlen) {
  selection_t sel = {.split = split};
  int rc = select_runs(s, f, &sel);
  if (!rc) rc = emit_selection(s, &sel, emit, ctx);
  *n_runs = sel.n;
  free_selection(&sel);
  if (rc == RIGOR_EIO) return rigor__store_fail(s, rc, "reading the stored records", err, errlen);
  if (rc) snprintf(err, errlen, "reading the stored records: %s", rigor_strerror(rc));
  return rc;
}

static int to_array(void *ctx, const char *record) {
  json_error_t jerr;
  json_t *rec = json_loads(record, 0, &jerr);
  if (!rec) return RIGOR_EINVAL;
  return json_array_append_new(ctx, rec) ? RIGOR_ENOMEM : 0;
}

int rigor_store_records(rigor_store_t *s, const rigor_store_filter_t *f, json_t **records,
                        char *err, size_t errlen) {
  json_t *all = json_array();
  size_t n_runs;
  int rc = emit_selected(s, f, false, to_array, all, &n_runs, err, errlen);
  if (rc) {
    json_decref(all);
    return rc;
  }
  *records = all;
  return 0;
}

static int to_file(void *ctx, const char *record) {
  return fputs(record, ctx) < 0 || fputc('\n', ctx) == EOF ? RIGOR_EIO : 0;
}

int rigor_store_export(rigor_store_t *s, const rigor_store_filter_t *f, FILE *out, char *err,
                       size_t errlen) {
  size_t n_runs = 0;
  int rc = emit_selected(s, f, true, to_file, out, &n_runs, err, errlen);
  if (rc || n_runs) return rc;
  char import[32] = "";
  if (f->import_id) snprintf(import, sizeof import, "%lld", f->import_id);
  const char *const parts[][2] = {
      {"commit", f->commit}, {"import", import[0] ? import : NULL}, {"experiment", f->experiment}};
  int len = snprintf(err, errlen, "no stored runs match");
  bool any = false;
  for (size_t i = 0; i < 3; i++)
    if (parts[i][1] && len >= 0 && (size_t)len < errlen) {
      len += snprintf(err + len, errlen - (size_t)len, "%s %s '%s'", any ? " and" : "", parts[i][0],
                      parts[i][1]);
      any = true;
    }
  if (!any && len >= 0 && (size_t)len < errlen)
    snprintf(err + len, errlen - (size_t)len, ": the store holds none");
  return RIGOR_ENOENT;
}

/* ---- points -----------------------------------------------------------------------------------
 */

typedef struct point_list {
  rigor_store_point_t *p;
  size_t n, cap;
} point_list_t;

static rigor_store_point_t *point_of(point_list_t *l, const char *commit) {
  for (size_t i = 0; commit && i < l->n; i++)
    if (l->p[i].commit && strcmp(l->p[i].commit, commit) == 0) return &l->p[i];
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 32;
    rigor_store_point_t *p = realloc(l->p, cap * sizeof *p);
    if (!p) return NULL;
    l->p = p, l->cap = cap;
  }
  rigor_store_point_t *pt = &l->p[l->n++];
  *pt = (rigor_store_point_t){.commit = dup_or_null(commit), .dirty = -1};
  return pt;
}

static int take_import(void *ctx, int n, const char *const *v) {
  point_list_t *l = ctx;
  if (n < 6) return RIGOR_EIO;
  rigor_store_point_t *pt = point_of(l, v[1]);
  if (!pt) return RIGOR_ENOMEM;
  if (!pt->first_import) {
    pt->first_import = strtoll(v[0], NULL, 10);
    pt->imported_at = strdup(v[5]);
  }
  if (!pt->date && v[2]) pt->date = strdup(v[2]);
  if (v[3]) {
    free(pt->branch);
    pt->branch = strdup(v[3]);
  }
  if (v[4]) {
    int d = strtol(v[4], NULL, 10) != 0;
    if (d > pt->dirty) pt->dirty = d;
  }
  return 0;
}

static int cmp_point(const void *a, const void *b) {
  const rigor_store_point_t *x = a, *y = b;
  const char *kx = x->date ? x->date : x->imported_at, *ky = y->date ? y->date : y->imported_at;
  int c = strcmp(kx ? kx : "", ky ? ky : "");
  if (c) return c;
  return (x->first_import > y->first_import) - (x->first_import < y->first_import);
}

int rigor_store_points(rigor_store_t *s, rigor_store_point_t **points, size_t *n, char *err,
                       size_t errlen) {
  point_list_t l = {0};
  int rc = s->ops->exec(s,
                        "SELECT i.id, i.commit_sha, i.commit_date, i.branch, i.dirty, i.imported_at"
                        " FROM imports i WHERE EXISTS (SELECT 1 FROM runs r WHERE r.import_id = "
                        "i.id) ORDER BY i.id",
                        0, NULL, take_import, &l);
  if (rc) {
    rigor_store_points_free(l.p, l.n);
    return rigor__store_fail(s, rc, "reading the history", err, errlen);
  }
  if (l.n) qsort(l.p, l.n, sizeof *l.p, cmp_point);
  *points = l.p;
  *n = l.n;
  return 0;
}

void rigor_store_points_free(rigor_store_point_t *points, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(points[i].commit);
    free(points[i].date);
    free(points[i].branch);
    free(points[i].imported_at);
  }
  free(points);
}

rigor_store_filter_t rigor_store_point_filter(const rigor_store_point_t *p) {
  rigor_store_filter_t f = {0};
  if (p->commit)
    f.commit = p->commit;
  else
    f.import_id = p->first_import;
  return f;
}
