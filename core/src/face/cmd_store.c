#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commit_meta.h"
#include "document.h"
#include "writers.h"
#include "store.h"

static const char usage[] =
    "usage: rigor store add RESULTS.jsonl... [--db URL] [--commit SHA] [--date ISO-8601]\n"
    "                       [--branch NAME] [--tag KEY=VALUE]... [--quiet]\n"
    "       rigor store ls [--db URL] [--format text|md|csv|json|html]\n"
    "       rigor store export [--db URL] [--commit SHA] [--import ID] [--experiment NAME] [-o "
    "OUT]\n"
    "       rigor store migrate [--db URL]\n"
    "The store is the SQLite file rigor.db here unless --db or RIGOR_DB names another\n"
    "(a path, sqlite:PATH, or postgresql://...).\n";

typedef struct store_args {
  const char *db, *commit, *date, *branch, *format, *out, *experiment, *import;
  const char **files, **tags;
  size_t n_files, n_tags;
  bool quiet;
} store_args_t;

static const char *const valued[] = {"--db",         "--commit", "--date", "--branch",
                                     "--tag",        "--format", "-o",     "--output",
                                     "--experiment", "--import", NULL};

static bool takes_value(const char *arg) {
  for (const char *const *v = valued; *v; v++)
    if (strcmp(arg, *v) == 0) return true;
  return false;
}

/* Options a subcommand does not take are refused by name. */
static int parse(const char *sub, const char *allowed, int argc, char **argv, store_args_t *a) {
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      return 1;
    }
    bool positional = arg[0] != '-' || !arg[1];
    char key[32];
    snprintf(key, sizeof key, " %s ", positional ? "FILE" : arg);
    if (!strstr(allowed, key)) {
      fprintf(stderr, "rigor store %s: %s '%s'\n%s", sub,
              positional ? "takes no file" : "unknown option", arg, usage);
      return -1;
    }
    if (positional) {
      a->files[a->n_files++] = arg;
      continue;
    }
    if (takes_value(arg) && i + 1 >= argc) {
      fprintf(stderr, "rigor store %s: %s needs a value\n", sub, arg);
      return -1;
    }
    const char *v = takes_value(arg) ? argv[++i] : NULL;
    if (strcmp(arg, "--db") == 0)
      a->db = v;
    else if (strcmp(arg, "--commit") == 0)
      a->commit = v;
    else if (strcmp(arg, "--date") == 0)
      a->date = v;
    else if (strcmp(arg, "--branch") == 0)
      a->branch = v;
    else if (strcmp(arg, "--tag") == 0)
      a->tags[a->n_tags++] = v;
    else if (strcmp(arg, "--format") == 0)
      a->format = v;
    else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)
      a->out = v;
    else if (strcmp(arg, "--experiment") == 0)
      a->experiment = v;
    else if (strcmp(arg, "--import") == 0)
      a->import = v;
    else if (strcmp(arg, "--quiet") == 0)
      a->quiet = true;
  }
  return 0;
}

typedef enum { STORE_READ, STORE_CREATE, STORE_MIGRATE } store_mode_t;

const char *rigor_store_url(const char *given) {
  if (given) return given;
  const char *env = getenv("RIGOR_DB");
  return env && env[0] ? env : "rigor.db";
}

static int open_store(const char *sub, const char *db, store_mode_t mode, rigor_store_t **s) {
  char err[1024] = "";
  const char *url = rigor_store_url(db);
  if (rigor_store_open(url, mode == STORE_CREATE, s, err, sizeof err) == 0) {
    if (mode != STORE_READ || rigor_store_require_current(*s, err, sizeof err) == 0) return 0;
    rigor_store_close(*s);
    *s = NULL;
  }
  char shown[1024];
  rigor_store_url_redact(url, shown, sizeof shown);
  fprintf(stderr, "rigor store %s: %s: %s\n", sub, shown, err);
  return RIGOR_EXIT_USAGE;
}

static int migrate(rigor_store_t *s, const char *sub, const char *url, bool quiet) {
  char err[1024] = "";
  int from = 0, to = 0;
  if (rigor_store_migrate(s, 0, &from, &to, err, sizeof err)) {
    fprintf(stderr, "rigor store %s: %s: %s\n", sub, url, err);
    return RIGOR_EXIT_USAGE;
  }
  if (!quiet && from != to) fprintf(stderr, "%s: schema version %d -> %d\n", url, from, to);
  return 0;
}

static void print_import(const char *path, const rigor_store_import_result_t *r,
                         const rigor_commit_meta_t *m, const char *url) {
  if (!r->import_id) {
    printf("%s: already stored (%zu runs): nothing added\n", path, r->runs_present);
    return;
  }
  printf("%s: %zu runs, %zu samples", path, r->runs_added, r->samples_added);
  if (r->runs_present) printf(" (%zu runs were already stored)", r->runs_present);
  char shown[1024];
  rigor_store_url_redact(url, shown, sizeof shown);
  printf(" -> %s, import %lld, commit %.12s%s\n", shown, r->import_id,
         m->sha[0] ? m->sha : "(none)", m->dirty > 0 ? " (dirty)" : "");
  if (r->samples_unstored)
    printf("  %zu samples of attempts without a run record were not stored\n", r->samples_unstored);
}

static int cmd_add(store_args_t *a) {
  if (a->n_files == 0) {
    fprintf(stderr, "rigor store add: no results file given\n%s", usage);
    return RIGOR_EXIT_USAGE;
  }
  rigor_commit_meta_t meta;
  rigor_commit_meta_read(a->commit, &meta);
  if (a->date && !rigor_date_normalize(a->date, meta.date)) {
    fprintf(stderr, "rigor store add: --date '%s' is not an ISO-8601 date (2024-05-01T12:00Z)\n",
            a->date);
    return RIGOR_EXIT_USAGE;
  }
  if (a->branch) snprintf(meta.branch, sizeof meta.branch, "%s", a->branch);
  if (!meta.sha[0] && !a->quiet)
    fprintf(stderr, "rigor store add: not in a git working tree and no --commit: imported "
                    "without a commit (history orders it by import time)\n");
  rigor_store_t *s = NULL;
  const char *url = rigor_store_url(a->db);
  int rc = open_store("add", a->db, STORE_CREATE, &s);
  if (rc) return rc;
  if ((rc = migrate(s, "add", url, a->quiet))) {
    rigor_store_close(s);
    return rc;
  }
  rigor_store_import_opts_t o = {.commit = meta.sha[0] ? meta.sha : NULL,
                                 .commit_date = meta.date[0] ? meta.date : NULL,
                                 .branch = meta.branch[0] ? meta.branch : NULL,
                                 .dirty = meta.dirty,
                                 .tags = a->tags,
                                 .n_tags = a->n_tags};
  for (size_t i = 0; i < a->n_files; i++) {
    char err[2048] = "";
    rigor_store_import_result_t r;
    if (rigor_store_import(s, a->files[i], &o, &r, err, sizeof err)) {
      fprintf(stderr, "rigor store add: %s\n", err);
      rc = RIGOR_EXIT_USAGE;
      continue;
    }
    if (!a->quiet) print_import(a->files[i], &r, &meta, url);
  }
  rigor_store_close(s);
  return rc;
}

static rigor_table_t *imports_table(const json_t *list) {
  static const char *const h[] = {"import", "imported at", "commit",      "date",   "branch",
                                  "runs",   "samples",     "experiments", "source", "tags"};
  rigor_table_t *t = rigor_table_new("", 10, h);
  size_t i;
  json_t *row;
  json_array_foreach(list, i, row) {
    char c[10][512];
    snprintf(c[0], sizeof c[0], "%lld", (long long)json_integer_value(json_object_get(row, "id")));
    snprintf(c[1], sizeof c[1], "%.19s", json_string_value(json_object_get(row, "imported_at")));
    const char *sha = json_string_value(json_object_get(row, "commit"));
    const json_t *dirty = json_object_get(row, "dirty");
    snprintf(c[2], sizeof c[2], "%.12s%s", sha ? sha : "-", json_is_true(dirty) ? " dirty" : "");
    const char *date = json_string_value(json_object_get(row, "commit_date"));
    snprintf(c[3], sizeof c[3], "%.19s", date ? date : "-");
    const char *branch = json_string_value(json_object_get(row, "branch"));
    snprintf(c[4], sizeof c[4], "%s", branch ? branch : "-");
    snprintf(c[5], sizeof c[5], "%lld",
             (long long)json_integer_value(json_object_get(row, "runs")));
    snprintf(c[6], sizeof c[6], "%lld",
             (long long)json_integer_value(json_object_get(row, "samples")));
    c[7][0] = c[9][0] = '\0';
    size_t k;
    json_t *v;
    json_array_foreach(json_object_get(row, "experiments"), k, v) {
      snprintf(c[7] + strlen(c[7]), sizeof c[7] - strlen(c[7]), "%s%s", k ? "," : "",
               json_string_value(v));
    }
    snprintf(c[8], sizeof c[8], "%s", json_string_value(json_object_get(row, "source")));
    const char *key;
    k = 0;
    json_object_foreach(json_object_get(row, "tags"), key, v) {
      snprintf(c[9] + strlen(c[9]), sizeof c[9] - strlen(c[9]), "%s%s=%s", k++ ? "," : "", key,
               json_string_value(v));
    }
    const char *cells[10];
    for (int j = 0; j < 10; j++)
      cells[j] = c[j][0] ? c[j] : "-";
    rigor_table_add(t, cells);
  }
  return t;
}

static int cmd_ls(store_args_t *a) {
  const rigor_writer_t *writer = rigor_writer_find(a->format ? a->format : "text");
  if (!writer) {
    fprintf(stderr, "rigor store ls: unknown format '%s' (%s)\n", a->format, rigor_writer_names());
    return RIGOR_EXIT_USAGE;
  }
  rigor_store_t *s = NULL;
  int rc = open_store("ls", a->db, STORE_READ, &s);
  if (rc) return rc;
  char err[1024] = "";
  json_t *list = NULL;
  if (rigor_store_list(s, &list, err, sizeof err)) {
    fprintf(stderr, "rigor store ls: %s\n", err);
    rigor_store_close(s);
    return RIGOR_EXIT_RUN_FAILED;
  }
  rigor_doc_t *doc = rigor_doc_new("rigor store");
  if (doc) {
    doc->data = json_incref(list);
    rigor_doc_table(doc, imports_table(list));
    writer->write(doc, stdout);
  }
  rigor_doc_free(doc);
  json_decref(list);
  rigor_store_close(s);
  return RIGOR_EXIT_OK;
}

static int cmd_export(store_args_t *a) {
  rigor_store_filter_t f = {.commit = a->commit, .experiment = a->experiment};
  if (a->import) {
    char *end;
    f.import_id = strtoll(a->import, &end, 10);
    if (*end || f.import_id <= 0) {
      fprintf(stderr, "rigor store export: --import takes an import number, not '%s'\n", a->import);
      return RIGOR_EXIT_USAGE;
    }
  }
  rigor_store_t *s = NULL;
  int rc = open_store("export", a->db, STORE_READ, &s);
  if (rc) return rc;
  FILE *out = a->out ? fopen(a->out, "wx") : stdout;
  if (!out) {
    if (errno == EEXIST)
      fprintf(stderr, "rigor store export: %s exists: a results file is never overwritten\n",
              a->out);
    else
      perror(a->out);
    rigor_store_close(s);
    return RIGOR_EXIT_USAGE;
  }
  char err[1024] = "";
  rc = rigor_store_export(s, &f, out, err, sizeof err);
  if (out != stdout && fclose(out) != 0 && !rc) rc = -1;
  rigor_store_close(s);
  if (rc) {
    fprintf(stderr, "rigor store export: %s\n", err[0] ? err : "could not write the records");
    return RIGOR_EXIT_RUN_FAILED;
  }
  return RIGOR_EXIT_OK;
}

int rigor_cmd_store(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? RIGOR_EXIT_USAGE : RIGOR_EXIT_OK;
  }
  const char *sub = argv[1];
  store_args_t a = {0};
  a.files = calloc((size_t)argc, sizeof *a.files);
  a.tags = calloc((size_t)argc, sizeof *a.tags);
  int rc = RIGOR_EXIT_USAGE;
  if (!a.files || !a.tags) goto done;
  static const struct {
    const char *name, *allowed;
    int (*fn)(store_args_t *);
  } subs[] = {
      {"add", " FILE --db --commit --date --branch --tag --quiet ", cmd_add},
      {"ls", " --db --format ", cmd_ls},
      {"export", " --db --commit --import --experiment -o --output ", cmd_export},
      {"migrate", " --db --quiet ", NULL},
  };
  size_t k = 0;
  while (k < sizeof subs / sizeof *subs && strcmp(subs[k].name, sub) != 0)
    k++;
  if (k == sizeof subs / sizeof *subs) {
    fprintf(stderr, "rigor store: unknown subcommand '%s'\n%s", sub, usage);
    goto done;
  }
  int p = parse(sub, subs[k].allowed, argc, argv, &a);
  if (p) {
    rc = p > 0 ? RIGOR_EXIT_OK : RIGOR_EXIT_USAGE;
    goto done;
  }
  if (subs[k].fn) {
    rc = subs[k].fn(&a);
  } else {
    rigor_store_t *s = NULL;
    rc = open_store("migrate", a.db, STORE_MIGRATE, &s);
    if (!rc) rc = migrate(s, "migrate", rigor_store_url(a.db), a.quiet);
    rigor_store_close(s);
  }
done:
  free(a.files);
  free(a.tags);
  return rc;
}
