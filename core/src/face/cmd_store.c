#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commit_meta.h"
#include "document.h"
#include "writers.h"
#include "store.h"
#include "suggest.h"

static const char store_about[] =
    "The store is the SQLite file rigor.db here unless --db or RIGOR_DB names another (a path,\n"
    "sqlite:PATH, or postgresql://...).\n"
    "\n"
    "subcommands:\n"
    "  add      import results files, with the commit they measured\n"
    "  ls       list the imports\n"
    "  export   write stored runs back as a results file\n"
    "  migrate  bring an older store's schema up to this version\n"
    "\n"
    "rigor store SUBCOMMAND --help lists its options.\n";

typedef struct store_args {
  const char *db, *commit, *date, *branch, *format, *out, *experiment, *import, *from;
  rigor_strings_t files, tags;
  bool quiet;
  const rigor_command_t *cmd;
  const struct rigor_importer *imp; /* --from */
} store_args_t;

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
  /* An empty database has schema version 0: bringing it to the current one creates the store. */
  if (!quiet && from == 0 && to > 0)
    fprintf(stderr, "%s: created (schema version %d)\n", url, to);
  else if (!quiet && from != to)
    fprintf(stderr, "%s: schema version %d -> %d\n", url, from, to);
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

/* --from: the files converted together (nccl-tests runs of one binary make one experiment) into
 * a results file of their own, imported in one transaction under the names of the originals. */
static int add_from(store_args_t *a, rigor_store_t *s, rigor_store_import_opts_t *o,
                    const rigor_commit_meta_t *meta, const char *url) {
  const char *tmpdir = getenv("TMPDIR");
  char dir[1024], path[1100], source[2048];
  snprintf(dir, sizeof dir, "%s/rigor-import-XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
  if (!mkdtemp(dir)) {
    fprintf(stderr, "rigor store add: cannot make a temporary folder: %s\n", strerror(errno));
    return RIGOR_EXIT_RUN_FAILED;
  }
  snprintf(path, sizeof path, "%s/imported.jsonl", dir);
  int rc = rigor_import_to(a->cmd, a->imp, a->files.v, a->files.n, path, false, true);
  if (rc == RIGOR_EXIT_OK) {
    size_t used = (size_t)snprintf(source, sizeof source, "%s:", a->from);
    for (size_t i = 0; i < a->files.n && used < sizeof source; i++)
      used += (size_t)snprintf(source + used, sizeof source - used, "%s%s", i ? "," : "",
                               a->files.v[i]);
    o->source = source;
    char err[2048] = "";
    rigor_store_import_result_t r;
    if (rigor_store_import(s, path, o, &r, err, sizeof err)) {
      fprintf(stderr, "rigor store add: %s\n", err);
      rc = RIGOR_EXIT_USAGE;
    } else if (!a->quiet) {
      print_import(source, &r, meta, url);
    }
  }
  unlink(path);
  rmdir(dir);
  return rc;
}

static int cmd_add(store_args_t *a) {
  if (a->files.n == 0) return rigor_usage_error(a->cmd, "no results file given");
  if (a->from && !(a->imp = rigor_args_importer(a->cmd, "--from", a->from)))
    return RIGOR_EXIT_USAGE;
  rigor_commit_meta_t meta;
  rigor_commit_meta_read(a->commit, &meta);
  if (a->date && !rigor_date_normalize(a->date, meta.date))
    return rigor_usage_error(a->cmd,
                             "--date '%s' is not an ISO-8601 date of the years 1 to 9999 "
                             "(2024-05-01T12:00Z, or @SECONDS since 1970)",
                             a->date);
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
                                 .tags = a->tags.v,
                                 .n_tags = a->tags.n};
  if (a->from) {
    rc = add_from(a, s, &o, &meta, url);
  } else {
    for (size_t i = 0; i < a->files.n; i++) {
      char err[2048] = "";
      rigor_store_import_result_t r;
      if (rigor_store_import(s, a->files.v[i], &o, &r, err, sizeof err)) {
        fprintf(stderr, "rigor store add: %s\n", err);
        rc = RIGOR_EXIT_USAGE;
        continue;
      }
      if (!a->quiet) print_import(a->files.v[i], &r, &meta, url);
    }
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
  const rigor_writer_t *writer = rigor_args_writer(a->cmd, a->format);
  if (!writer) return RIGOR_EXIT_USAGE;
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
  FILE *out = rigor_output_open(a->cmd, a->out);
  rc = out ? RIGOR_EXIT_OK : RIGOR_EXIT_CANNOT_WRITE;
  if (doc && out) {
    doc->data = json_incref(list);
    rigor_doc_table(doc, imports_table(list));
    if (writer->write(doc, out)) rc = RIGOR_EXIT_CANNOT_WRITE;
  }
  if (out && rigor_output_close(a->cmd, a->out, out)) rc = RIGOR_EXIT_CANNOT_WRITE;
  rigor_doc_free(doc);
  json_decref(list);
  rigor_store_close(s);
  return rc;
}

static int cmd_export(store_args_t *a) {
  rigor_store_filter_t f = {.commit = a->commit, .experiment = a->experiment};
  if (a->import) {
    char *end;
    f.import_id = strtoll(a->import, &end, 10);
    if (*end || f.import_id <= 0)
      return rigor_usage_error(a->cmd, "--import takes an import number, not '%s'", a->import);
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
      fprintf(stderr, "rigor store export: cannot write %s: %s\n", a->out, strerror(errno));
    rigor_store_close(s);
    return RIGOR_EXIT_CANNOT_WRITE;
  }
  char err[1024] = "";
  rc = rigor_store_export(s, &f, out, err, sizeof err);
  bool closed = out == stdout ? fflush(out) == 0 : fclose(out) == 0;
  rigor_store_close(s);
  if (!rc && closed) return RIGOR_EXIT_OK;
  if (a->out) remove(a->out); /* ours, made by "wx": no empty or partial results file stays */
  if (rc == RIGOR_ENOENT) {
    fprintf(stderr, "rigor store export: %s\n", err);
    return RIGOR_EXIT_USAGE;
  }
  fprintf(stderr, "rigor store export: %s\n", err[0] ? err : "could not write the records");
  return RIGOR_EXIT_CANNOT_WRITE;
}

static int cmd_migrate(store_args_t *a) {
  rigor_store_t *s = NULL;
  int rc = open_store("migrate", a->db, STORE_MIGRATE, &s);
  if (!rc) rc = migrate(s, "migrate", rigor_store_url(a->db), a->quiet);
  rigor_store_close(s);
  return rc;
}

int rigor_cmd_store(int argc, char **argv) {
  store_args_t a = {0};
  const rigor_option_t db = {"db", 0, "URL", "the store (default: $RIGOR_DB, else rigor.db)",
                             .value = &a.db};
  const rigor_option_t add_options[] = {
      db,
      {"commit", 0, "SHA", "the commit the results measured (default: the working tree's HEAD)",
       .value = &a.commit},
      {"date", 0, "ISO-8601", "that commit's date (default: git's)", .value = &a.date},
      {"branch", 0, "NAME", "its branch (default: git's)", .value = &a.branch},
      {"tag", 0, "KEY=VALUE", "a tag the import carries (repeatable)", .list = &a.tags},
      {"from", 0, "FORMAT", "the files are another tool's results (rigor import --help lists them)",
       .value = &a.from},
      {"quiet", 'q', NULL, "print nothing but errors", .flag = &a.quiet},
      {0},
  };
  const rigor_option_t ls_options[] = {
      db,
      {"format", 0, "FORMAT", "text (default), md, csv, json or html", .value = &a.format},
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &a.out},
      {0},
  };
  const rigor_option_t export_options[] = {
      db,
      {"commit", 0, "SHA", "only runs of this commit", .value = &a.commit},
      {"import", 0, "ID", "only runs of this import (store ls lists them)", .value = &a.import},
      {"experiment", 0, "NAME", "only runs of this experiment", .value = &a.experiment},
      {"output", 'o', "OUT", "write to OUT (never over an existing file), not standard output",
       .value = &a.out},
      {0},
  };
  const rigor_option_t migrate_options[] = {
      db,
      {"quiet", 'q', NULL, "print nothing but errors", .flag = &a.quiet},
      {0},
  };
  static const char add_about[] =
      "Imports results files into the store, each in one transaction. Without --commit, the\n"
      "commit, its date, the branch and whether tracked files differ come from the git working\n"
      "tree. A run already stored is not stored again. With --from FORMAT the files are another\n"
      "tool's results, converted as rigor import converts them.\n";
  const struct {
    rigor_command_t cmd;
    int (*fn)(store_args_t *);
    bool files;
  } subs[] = {
      {{"store add", "RESULTS.jsonl... [OPTION]...\n--from FORMAT FILE... [OPTION]...", add_about,
        add_options},
       cmd_add,
       true},
      {{"store ls", "[OPTION]...", "Lists the imports.\n", ls_options}, cmd_ls, false},
      {{"store export", "[OPTION]...", "Writes stored runs back as a results file.\n",
        export_options},
       cmd_export,
       false},
      {{"store migrate", "[OPTION]...", "Brings an older store's schema up to this version.\n",
        migrate_options},
       cmd_migrate,
       false},
  };
  const rigor_option_t no_options[] = {{0}};
  const rigor_command_t store = {"store", "SUBCOMMAND [OPTION]...", store_about, no_options};
  size_t n_subs = sizeof subs / sizeof *subs;
  if (argc < 2) return rigor_usage_error(&store, "no subcommand given (add, ls, export, migrate)");
  const char *sub = argv[1];
  if (sub[0] == '-') {
    int rc = rigor_args_parse(&store, argc, argv, NULL);
    return rc >= 0 ? rc
                   : rigor_usage_error(&store, "no subcommand given (add, ls, export, migrate)");
  }
  const char *names[8];
  size_t k = 0;
  for (; k < n_subs && strcmp(subs[k].cmd.name + 6, sub) != 0; k++)
    names[k] = subs[k].cmd.name + 6;
  if (k == n_subs) {
    const char *near = rigor_closest(sub, names, n_subs);
    return near ? rigor_usage_error(&store, "unknown subcommand '%s' (did you mean '%s'?)", sub,
                                    near)
                : rigor_usage_error(&store, "unknown subcommand '%s' (add, ls, export, migrate)",
                                    sub);
  }
  a.cmd = &subs[k].cmd;
  int rc = rigor_args_parse(a.cmd, argc - 1, argv + 1, subs[k].files ? &a.files : NULL);
  if (rc < 0) rc = subs[k].fn(&a);
  rigor_strings_free(&a.files);
  rigor_strings_free(&a.tags);
  return rc;
}
