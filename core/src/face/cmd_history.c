#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commit_meta.h"
#include "history.h"
#include "writers.h"
#include "store.h"
#include "units.h"

static const char usage[] =
    "usage: rigor history [--db URL] [--series FILTER] [--format text|md|csv|json|html] [-o OUT]\n"
    "                     [--upto SHA] [--significance P] [--min-magnitude PCT] [--window N]\n"
    "       rigor history check [--db URL] [--commit SHA] [--series FILTER] [--format "
    "text|json]\n"
    "                     [--significance P] [--min-magnitude PCT] [--window N]\n"
    "FILTER is a glob over EXPERIMENT/VARIANT/POINT/METRIC, or a substring of it, or an\n"
    "experiment hash prefix. check exits 4 when SHA (default: the working tree's HEAD) opens a\n"
    "regression change point, or, with fewer stable points than the detector needs, when the\n"
    "A/B contrast with the previous commit says slower; 0 otherwise.\n";

typedef struct history_args {
  const char *db, *format, *out, *commit;
  bool check;
  rigor_history_opts_t opts;
} history_args_t;

static int parse_detector(const char *opt, const char *v, rigor_history_opts_t *o) {
  char err[256] = "";
  if (strcmp(opt, "--significance") == 0) {
    char *end;
    double p = strtod(v, &end);
    if (*end || !(p > 0 && p < 1)) {
      fprintf(stderr, "rigor history: --significance takes a p-value in (0, 1), not '%s'\n", v);
      return -1;
    }
    o->cpd.significance = p, o->has_significance = true;
  } else if (strcmp(opt, "--min-magnitude") == 0) {
    if (rigor_parse_percent(v, &o->cpd.min_magnitude, err, sizeof err) ||
        !(o->cpd.min_magnitude >= 0)) {
      fprintf(stderr, "rigor history: --min-magnitude: %s\n", err[0] ? err : "must be >= 0");
      return -1;
    }
    o->has_min_magnitude = true;
  } else {
    uint64_t w = 0;
    if (rigor_parse_uint(v, &w, err, sizeof err) || w < 2 || w > 100000) {
      fprintf(stderr, "rigor history: --window takes a whole number from 2 to 100000, not '%s'\n",
              v);
      return -1;
    }
    o->cpd.window = (uint32_t)w, o->has_window = true;
  }
  return 0;
}

static int parse(int argc, char **argv, history_args_t *a) {
  int i = 1;
  if (argc > 1 && strcmp(argv[1], "check") == 0) a->check = true, i = 2;
  for (; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      return 1;
    }
    static const char *const common[] = {
        "--db", "--series", "--format", "--significance", "--window", "--min-magnitude", NULL};
    static const char *const report_only[] = {"-o", "--output", "--upto", NULL};
    static const char *const check_only[] = {"--commit", NULL};
    bool known = false;
    for (const char *const *k = common; *k && !known; k++)
      known = strcmp(arg, *k) == 0;
    for (const char *const *k = a->check ? check_only : report_only; *k && !known; k++)
      known = strcmp(arg, *k) == 0;
    if (!known) {
      fprintf(stderr, "rigor history%s: unknown %s '%s'\n%s", a->check ? " check" : "",
              arg[0] == '-' ? "option" : "argument", arg, usage);
      return -1;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "rigor history: %s needs a value\n", arg);
      return -1;
    }
    const char *v = argv[++i];
    if (strcmp(arg, "--db") == 0)
      a->db = v;
    else if (strcmp(arg, "--series") == 0)
      a->opts.filter = v;
    else if (strcmp(arg, "--format") == 0)
      a->format = v;
    else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)
      a->out = v;
    else if (strcmp(arg, "--upto") == 0)
      a->opts.upto = v;
    else if (strcmp(arg, "--commit") == 0)
      a->commit = v;
    else if (parse_detector(arg, v, &a->opts))
      return -1;
  }
  return 0;
}

static int open_history(const history_args_t *a, const rigor_history_opts_t *o, const char *what,
                        rigor_store_t **s, rigor_history_t **h) {
  char err[1024] = "";
  const char *url = rigor_store_url(a->db);
  *h = NULL;
  int rc = rigor_store_open(url, false, s, err, sizeof err);
  if (!rc) rc = rigor_store_require_current(*s, err, sizeof err);
  if (!rc) rc = rigor_history_build(*s, o, h, err, sizeof err);
  if (!rc) return 0;
  char shown[1024];
  rigor_store_url_redact(url, shown, sizeof shown);
  fprintf(stderr, "rigor %s: %s: %s\n", what, shown, err);
  rigor_store_close(*s);
  *s = NULL;
  return RIGOR_EXIT_USAGE;
}

static int cmd_check(history_args_t *a) {
  if (a->format && strcmp(a->format, "text") != 0 && strcmp(a->format, "json") != 0) {
    fprintf(stderr, "rigor history check: --format takes text or json, not '%s'\n", a->format);
    return RIGOR_EXIT_USAGE;
  }
  rigor_commit_meta_t meta;
  rigor_commit_meta_read(a->commit, &meta);
  if (!meta.sha[0]) {
    fprintf(stderr, "rigor history check: no --commit, and this folder is not a git working "
                    "tree\n");
    return RIGOR_EXIT_USAGE;
  }
  rigor_history_opts_t o = a->opts;
  o.upto = meta.sha;
  rigor_store_t *s = NULL;
  rigor_history_t *h = NULL;
  int rc = open_history(a, &o, "history check", &s, &h);
  if (rc) return rc;
  bool regression = false;
  char err[1024] = "";
  bool json = a->format && strcmp(a->format, "json") == 0;
  if (rigor_history_check(s, h, h->n_commits - 1, stdout, json, &regression, err, sizeof err)) {
    fprintf(stderr, "rigor history check: %s\n", err);
    rc = RIGOR_EXIT_USAGE;
  } else {
    rc = regression ? RIGOR_EXIT_REGRESSION : RIGOR_EXIT_OK;
  }
  rigor_history_free(h);
  rigor_store_close(s);
  return rc;
}

static int cmd_report(history_args_t *a) {
  const char *f = a->format ? a->format : "text";
  const rigor_writer_t *writer = rigor_writer_find(f);
  if (!writer) {
    fprintf(stderr, "rigor history: unknown format '%s' (%s)\n", f, rigor_writer_names());
    return RIGOR_EXIT_USAGE;
  }
  rigor_store_t *s = NULL;
  rigor_history_t *h = NULL;
  int rc = open_history(a, &a->opts, "history", &s, &h);
  if (rc) return rc;
  FILE *out = a->out ? fopen(a->out, "w") : stdout;
  if (!out) {
    perror(a->out);
    rc = RIGOR_EXIT_USAGE;
  } else {
    rigor_doc_t *doc = rigor_history_doc(h);
    int wrc = doc ? writer->write(doc, out) : RIGOR_ENOMEM;
    rigor_doc_free(doc);
    if ((out != stdout && fclose(out) != 0) || wrc) {
      fprintf(stderr, "rigor history: could not write the report%s%s\n", a->out ? " to " : "",
              a->out ? a->out : "");
      rc = RIGOR_EXIT_RUN_FAILED;
    }
  }
  rigor_history_free(h);
  rigor_store_close(s);
  return rc;
}

int rigor_cmd_history(int argc, char **argv) {
  history_args_t a = {0};
  rigor_history_opts_default(&a.opts);
  int p = parse(argc, argv, &a);
  if (p) return p > 0 ? RIGOR_EXIT_OK : RIGOR_EXIT_USAGE;
  return a.check ? cmd_check(&a) : cmd_report(&a);
}
