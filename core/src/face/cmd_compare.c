#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "contrast.h"
#include "report_view.h"
#include "writers.h"
#include "units.h"

static const char usage[] =
    "usage: rigor compare BASE CAND [--threshold 2%] [--fail-on LIST] [--format FORMAT]\n"
    "                     [--ignore-identity PATH]... [--seed N]\n"
    "       rigor compare FILE --axis AXIS [--ref LEVEL] [--candidate LEVEL] [--threshold 2%]\n"
    "                     [--fail-on LIST] [--format FORMAT]\n"
    "  either form: [--table NAME] [--columns A,B,...] [--width N]\n"
    "  FORMAT: text, md, csv, json, html; LIST: undetermined, unstable, invalid, incomparable,\n"
    "  missing (comma-separated). Exit 4 when a row is slower or has a verdict of LIST, 1 when\n"
    "  nothing could be compared.\n";

typedef struct compare_args {
  rigor_compare_opts_t opts;
  const char *files[2];
  size_t n_files;
  const char *axis, *ref, *candidate;
  const rigor_writer_t *writer;
  rigor_report_view_t view;
} compare_args_t;

/* The threshold is a fraction or a percentage; "5" is refused (5% or 500%?). */
static int parse_threshold(const char *text, double *out) {
  char err[256];
  if (rigor_parse_percent(text, out, err, sizeof err)) {
    fprintf(stderr, "rigor compare: --threshold: %s\n", err);
    return -1;
  }
  return 0;
}

static int parse_args(int argc, char **argv, compare_args_t *a, const char **ignore) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    char err[256];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      return 1;
    }
    static const char *const valued[] = {"--threshold", "--format",    "--ignore-identity",
                                         "--seed",      "--fail-on",   "--axis",
                                         "--ref",       "--candidate", NULL};
    bool takes_value = rigor_report_view_option(arg);
    for (size_t k = 0; valued[k]; k++)
      takes_value = takes_value || strcmp(arg, valued[k]) == 0;
    if (takes_value && i + 1 >= argc) {
      fprintf(stderr, "rigor compare: %s needs a value\n%s", arg, usage);
      return -1;
    }
    const char *val = takes_value ? argv[++i] : NULL;
    if (rigor_report_view_option(arg)) {
      if (rigor_report_view_set(&a->view, "compare", arg, val)) return -1;
    } else if (strcmp(arg, "--threshold") == 0) {
      if (parse_threshold(val, &a->opts.threshold)) return -1;
    } else if (strcmp(arg, "--format") == 0) {
      if (!(a->writer = rigor_writer_find(val))) {
        fprintf(stderr, "rigor compare: unknown format '%s' (%s)\n", val, rigor_writer_names());
        return -1;
      }
    } else if (strcmp(arg, "--ignore-identity") == 0) {
      ignore[a->opts.n_ignore++] = val;
    } else if (strcmp(arg, "--seed") == 0) {
      if (rigor_parse_uint(val, &a->opts.seed, err, sizeof err)) {
        fprintf(stderr, "rigor compare: --seed: %s\n", err);
        return -1;
      }
    } else if (strcmp(arg, "--fail-on") == 0) {
      if (rigor_fail_on_parse(val, &a->opts.fail_on, err, sizeof err)) {
        fprintf(stderr, "rigor compare: --fail-on: %s\n", err);
        return -1;
      }
    } else if (strcmp(arg, "--axis") == 0) {
      a->axis = val;
    } else if (strcmp(arg, "--ref") == 0) {
      a->ref = val;
    } else if (strcmp(arg, "--candidate") == 0) {
      a->candidate = val;
    } else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "rigor compare: unknown option '%s'\n%s", arg, usage);
      return -1;
    } else if (a->n_files < 2) {
      a->files[a->n_files++] = arg;
    } else {
      fprintf(stderr, "rigor compare: too many files ('%s')\n%s", arg, usage);
      return -1;
    }
  }
  return 0;
}

static int exit_for(bool vacuous, bool regression, bool failed, const char *why) {
  if (vacuous) {
    fprintf(stderr, "rigor compare: nothing was compared: %s\n", why);
    return RIGOR_EXIT_RUN_FAILED;
  }
  return regression || failed ? RIGOR_EXIT_REGRESSION : RIGOR_EXIT_OK;
}

static int compare_files(const compare_args_t *a) {
  rigor_analysis_t *an[2] = {NULL, NULL};
  for (int s = 0; s < 2; s++) {
    char err[1024] = "";
    if (rigor_analysis_load(&a->files[s], 1, &an[s], err, sizeof err)) {
      fprintf(stderr, "rigor compare: %s\n", err);
      rigor_analysis_free(an[0]);
      return RIGOR_EXIT_USAGE;
    }
  }
  rigor_comparison_t *c = NULL;
  int code;
  if (rigor_compare(an[0], an[1], &a->opts, &c) == 0) {
    rigor_doc_t *doc = rigor_comparison_doc(c);
    bool bad_view = doc && rigor_report_view_apply(&a->view, "compare", doc);
    if (doc && !bad_view) a->writer->write(doc, stdout);
    rigor_doc_free(doc);
    char why[256];
    rigor_comparison_vacuous_reason(c, why, sizeof why);
    fflush(stdout);
    code =
        bad_view ? RIGOR_EXIT_USAGE : exit_for(c->n_compared == 0, c->regression, c->failed, why);
    rigor_comparison_free(c);
  } else {
    fprintf(stderr, "rigor compare: out of memory\n");
    code = RIGOR_EXIT_RUN_FAILED;
  }
  rigor_analysis_free(an[0]);
  rigor_analysis_free(an[1]);
  return code;
}

/* The levels of one matrix axis of one file, against a reference level (docs/methodology.md). */
static int compare_axis(const compare_args_t *a) {
  rigor_analysis_t *an = NULL;
  char err[1024] = "";
  if (rigor_analysis_load(&a->files[0], 1, &an, err, sizeof err)) {
    fprintf(stderr, "rigor compare: %s\n", err);
    return RIGOR_EXIT_USAGE;
  }
  rigor_contrast_opts_t co;
  rigor_contrast_opts_default(&co);
  co.threshold = a->opts.threshold;
  co.alpha = a->opts.alpha;
  co.candidate = a->candidate;
  rigor_contrasts_t **sets = calloc(an->n_exps ? an->n_exps : 1, sizeof *sets);
  size_t n_sets = 0, with_axis = 0;
  int code = RIGOR_EXIT_USAGE;
  for (size_t x = 0; sets && x < an->n_exps; x++) {
    const rigor_exp_analysis_t *e = &an->exps[x];
    if (rigor_axis_check(e, a->axis, NULL, err, sizeof err)) continue;
    with_axis++;
    const char *levels[2] = {a->ref, a->candidate};
    for (int k = 0; k < 2; k++)
      if (levels[k] && rigor_axis_check(e, a->axis, levels[k], err, sizeof err)) {
        fprintf(stderr, "rigor compare: %s\n", err);
        goto done;
      }
    if (rigor_contrasts_build_opts(e, a->axis, a->ref, &co, &sets[n_sets]) == 0) n_sets++;
  }
  if (!with_axis) {
    fprintf(stderr, "rigor compare: %s: %s\n", a->files[0], err);
    goto done;
  }
  bool regression = false, failed = false;
  size_t compared = 0;
  json_t *all = json_array();
  for (size_t i = 0; i < n_sets; i++) {
    regression = regression || sets[i]->regression;
    for (size_t k = 0; k < sets[i]->n; k++) {
      const rigor_contrast_t *c = &sets[i]->items[k];
      failed = failed || (a->opts.fail_on & (1u << c->verdict));
      compared += c->n_pairs > 0 || c->exact;
    }
    json_t *part = rigor_contrasts_json(sets[i]);
    for (size_t k = 0; k < json_array_size(part); k++)
      json_object_set_new(json_array_get(part, k), "experiment", json_string(sets[i]->exp->name));
    json_array_extend(all, part);
    json_decref(part);
  }
  rigor_doc_t *doc = rigor_doc_new("rigor compare");
  bool bad_view = false;
  if (doc) {
    doc->data = json_pack("{s:s, s:s, s:s, s:o, s:o, s:b, s:b, s:o}", "schema", "rigor.contrasts/1",
                          "file", a->files[0], "axis", a->axis, "threshold",
                          json_real(co.threshold), "alpha", json_real(co.alpha), "regression",
                          regression, "failed", failed, "contrasts", all);
    all = NULL;
    rigor_doc_heading(doc, 1, "rigor compare %s --axis %s", a->files[0], a->axis);
    for (size_t i = 0; i < n_sets; i++) {
      rigor_doc_section(doc, sets[i]->exp->name);
      rigor_doc_heading(doc, 2, "experiment %s", sets[i]->exp->name);
      rigor_contrasts_doc(doc, sets[i]);
    }
    rigor_doc_text(doc, "%s%s", regression ? "REGRESSION: some levels are slower" : "no regression",
                   failed ? "; FAILED: some contrasts have a verdict of --fail-on" : "");
    if (rigor_report_view_apply(&a->view, "compare", doc) == 0)
      a->writer->write(doc, stdout);
    else
      bad_view = true;
    rigor_doc_free(doc);
  }
  json_decref(all);
  fflush(stdout);
  code = bad_view
             ? RIGOR_EXIT_USAGE
             : exit_for(compared == 0, regression, failed,
                        "no contrast has a complete block (both levels ran ok in the same block)");
done:
  for (size_t i = 0; i < n_sets; i++)
    rigor_contrasts_free(sets[i]);
  free(sets);
  rigor_analysis_free(an);
  return code;
}

int rigor_cmd_compare(int argc, char **argv) {
  compare_args_t a = {.writer = rigor_writer_find("text"), .view = RIGOR_REPORT_VIEW_INIT};
  rigor_compare_opts_default(&a.opts);
  const char **ignore = calloc((size_t)argc, sizeof *ignore);
  if (!ignore) return RIGOR_EXIT_USAGE;
  a.opts.ignore_identity = ignore;
  int rc = parse_args(argc, argv, &a, ignore);
  int code = RIGOR_EXIT_USAGE;
  if (rc > 0) {
    code = RIGOR_EXIT_OK;
  } else if (rc == 0) {
    if (a.axis && a.n_files == 1)
      code = compare_axis(&a);
    else if (a.axis)
      fprintf(stderr, "rigor compare: --axis compares the levels of one file\n%s", usage);
    else if (a.ref || a.candidate)
      fprintf(stderr, "rigor compare: --ref and --candidate need --axis\n%s", usage);
    else if (a.n_files != 2)
      fprintf(stderr, "rigor compare: needs BASE and CAND (or FILE --axis AXIS)\n%s", usage);
    else
      code = compare_files(&a);
  }
  free(ignore);
  return code;
}
