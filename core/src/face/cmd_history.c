#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commit_meta.h"
#include "history_doc.h"
#include "writers.h"
#include "store.h"
#include "suggest.h"
#include "units.h"

static const char history_about[] =
    "Each series (experiment, variant, point, metric) of the store over commits: the median with\n"
    "the 95% interval of its runs per commit, the CV gate's verdict, and the change points, each\n"
    "with its commit, the change with an interval, its p-value, and whether it is a regression.\n"
    "Runs that name their node (slurm.node) make a series per node set: METRIC@NODES.\n"
    "FILTER is a glob over EXPERIMENT/VARIANT/POINT/METRIC[@NODES], or a substring of it, or an\n"
    "experiment hash prefix. `rigor history check --help`: the CI gate.\n";

static const char check_about[] =
    "The CI gate: exit 4 when SHA (default: the working tree's HEAD) opens a regression change\n"
    "point, or, with fewer stable points than the detector needs, when the A/B contrast with the\n"
    "previous commit says slower; 0 otherwise.\n";

typedef struct history_args {
  const char *db, *format, *out, *commit, *significance, *min_magnitude, *window;
  bool check;
  rigor_history_opts_t opts;
  const rigor_command_t *cmd;
} history_args_t;

/* --significance, --min-magnitude and --window into the detector's parameters. */
static int parse_detector(history_args_t *a) {
  rigor_history_opts_t *o = &a->opts;
  char err[256] = "";
  if (a->significance) {
    char *end;
    double p = strtod(a->significance, &end);
    if (*end || !(p > 0 && p < 1))
      return rigor_usage_error(a->cmd, "--significance takes a p-value in (0, 1), not '%s'",
                               a->significance);
    o->cpd.significance = p, o->has_significance = true;
  }
  if (a->min_magnitude) {
    if (rigor_parse_percent(a->min_magnitude, &o->cpd.min_magnitude, err, sizeof err) ||
        !(o->cpd.min_magnitude >= 0))
      return rigor_usage_error(a->cmd, "--min-magnitude: %s", err[0] ? err : "must be >= 0");
    o->has_min_magnitude = true;
  }
  if (a->window) {
    uint64_t w = 0;
    if (rigor_parse_uint(a->window, &w, err, sizeof err) || w < 2 || w > 100000)
      return rigor_usage_error(a->cmd, "--window takes a whole number from 2 to 100000, not '%s'",
                               a->window);
    o->cpd.window = (uint32_t)w, o->has_window = true;
  }
  return -1;
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
  static const char *const formats[] = {"text", "json", NULL};
  int fmt = a->format ? rigor_args_choice(a->cmd, "--format", a->format, formats) : 0;
  if (fmt < 0) return RIGOR_EXIT_USAGE;
  rigor_commit_meta_t meta;
  rigor_commit_meta_read(a->commit, &meta);
  if (!meta.sha[0])
    return rigor_usage_error(a->cmd, "no --commit, and this folder is not a git working tree");
  rigor_history_opts_t o = a->opts;
  o.upto = meta.sha;
  rigor_store_t *s = NULL;
  rigor_history_t *h = NULL;
  int rc = open_history(a, &o, "history check", &s, &h);
  if (rc) return rc;
  FILE *out = rigor_output_open(a->cmd, a->out);
  if (!out) {
    rigor_history_free(h);
    rigor_store_close(s);
    return RIGOR_EXIT_CANNOT_WRITE;
  }
  bool regression = false;
  char err[1024] = "";
  bool json = fmt == 1;
  if (rigor_history_check(s, h, h->n_commits - 1, out, json, &regression, err, sizeof err)) {
    fprintf(stderr, "rigor history check: %s\n", err);
    rc = RIGOR_EXIT_USAGE;
  } else {
    rc = regression ? RIGOR_EXIT_REGRESSION : RIGOR_EXIT_OK;
  }
  if (rigor_output_close(a->cmd, a->out, out)) rc = RIGOR_EXIT_CANNOT_WRITE;
  rigor_history_free(h);
  rigor_store_close(s);
  return rc;
}

static int cmd_report(history_args_t *a) {
  const rigor_writer_t *writer = rigor_args_writer(a->cmd, a->format);
  if (!writer) return RIGOR_EXIT_USAGE;
  rigor_store_t *s = NULL;
  rigor_history_t *h = NULL;
  int rc = open_history(a, &a->opts, "history", &s, &h);
  if (rc) return rc;
  FILE *out = rigor_output_open(a->cmd, a->out);
  if (!out) {
    rc = RIGOR_EXIT_CANNOT_WRITE;
  } else {
    rigor_doc_t *doc = rigor_history_doc(h);
    int wrc = doc ? writer->write(doc, out) : RIGOR_ENOMEM;
    rigor_doc_free(doc);
    if (rigor_output_close(a->cmd, a->out, out) || wrc) rc = RIGOR_EXIT_CANNOT_WRITE;
  }
  rigor_history_free(h);
  rigor_store_close(s);
  return rc;
}

int rigor_cmd_history(int argc, char **argv) {
  history_args_t a = {0};
  rigor_history_opts_default(&a.opts);
  a.check = argc > 1 && strcmp(argv[1], "check") == 0;
  const rigor_option_t report_options[] = {
      {"db", 0, "URL", "the store (default: $RIGOR_DB, else rigor.db)", .value = &a.db},
      {"series", 0, "FILTER", "only the series FILTER matches", .value = &a.opts.filter},
      {"format", 0, "FORMAT", "text (default), md, csv, json or html", .value = &a.format},
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &a.out},
      {"upto", 0, "SHA", "only commits up to SHA", .value = &a.opts.upto},
      {"significance", 0, "P", "the detector's p-value threshold", .value = &a.significance},
      {"min-magnitude", 0, "PCT", "the smallest change the detector reports",
       .value = &a.min_magnitude},
      {"window", 0, "N", "the detector's window, in points", .value = &a.window},
      {0},
  };
  const rigor_option_t check_options[] = {
      {"db", 0, "URL", "the store (default: $RIGOR_DB, else rigor.db)", .value = &a.db},
      {"commit", 0, "SHA", "the commit to judge (default: the working tree's HEAD)",
       .value = &a.commit},
      {"series", 0, "FILTER", "only the series FILTER matches", .value = &a.opts.filter},
      {"format", 0, "FORMAT", "text (default) or json", .value = &a.format},
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &a.out},
      {"significance", 0, "P", "the detector's p-value threshold", .value = &a.significance},
      {"min-magnitude", 0, "PCT", "the smallest change the detector reports",
       .value = &a.min_magnitude},
      {"window", 0, "N", "the detector's window, in points", .value = &a.window},
      {0},
  };
  const rigor_command_t report = {"history", "[OPTION]...\ncheck [OPTION]...", history_about,
                                  report_options};
  const rigor_command_t check = {"history check", "[OPTION]...", check_about, check_options};
  a.cmd = a.check ? &check : &report;
  if (!a.check && argc > 1 && argv[1][0] != '-') {
    const char *const subs[] = {"check"};
    return rigor_closest(argv[1], subs, 1)
               ? rigor_usage_error(&report, "unknown subcommand '%s' (did you mean 'check'?)",
                                   argv[1])
               : rigor_usage_error(&report, "takes no arguments ('%s')", argv[1]);
  }
  int rc = rigor_args_parse(a.cmd, argc - a.check, argv + a.check, NULL);
  if (rc < 0) rc = parse_detector(&a);
  if (rc >= 0) return rc;
  return a.check ? cmd_check(&a) : cmd_report(&a);
}
