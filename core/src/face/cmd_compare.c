#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare_doc.h"
#include "contrast_doc.h"
#include "report_view.h"
#include "tally.h"
#include "writers.h"
#include "units.h"

static const char about[] =
    "Verdicts per variant and point between two results files (BASE and CAND), with the run as\n"
    "the unit; or, with --axis, the levels of one matrix axis of one FILE against a reference\n"
    "level, paired by block. Verdicts come from the interval: faster or slower when it lies\n"
    "wholly beyond the threshold, same when wholly inside it, inconclusive otherwise; and\n"
    "invalid, incomparable, missing, undetermined. Across files every interval allows for the\n"
    "variation between two sessions (--session-noise). Exit 4 when a row is slower or has a\n"
    "verdict --fail-on lists, 1 when nothing could be compared.\n";

typedef struct compare_args {
  rigor_compare_opts_t opts;
  const char *const *files;
  size_t n_files;
  size_t n_base; /* with `--`: the files before it are BASE, the rest CAND; 0 without */
  const char *axis, *ref, *candidate, *out_path;
  const rigor_writer_t *writer;
  const rigor_command_t *cmd;
  rigor_report_view_t view;
} compare_args_t;

static int exit_for(bool vacuous, bool regression, bool failed, const char *why) {
  if (vacuous) {
    fprintf(stderr, "rigor compare: nothing was compared: %s\n", why);
    return RIGOR_EXIT_RUN_FAILED;
  }
  return regression || failed ? RIGOR_EXIT_REGRESSION : RIGOR_EXIT_OK;
}

/* "golden-side (1 row), other (2 rows)": the experiments a file holds. */
static void holdings(const rigor_analysis_t *an, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t x = 0; x < an->n_exps && used < len; x++) {
    int k = snprintf(buf + used, len - used, "%s%s (%zu row%s)", x ? ", " : "", an->exps[x].name,
                     an->exps[x].n_rows, an->exps[x].n_rows == 1 ? "" : "s");
    used += k > 0 ? (size_t)k : 0;
  }
  if (!an->n_exps) snprintf(buf, len, "no experiment");
}

/* Each --map BASE_NAME=CAND_NAME names an experiment of each file; a usage error otherwise. */
static int check_map(const compare_args_t *a, rigor_analysis_t *const an[2]) {
  for (size_t i = 0; i < a->opts.n_map; i++) {
    const char *m = a->opts.map[i], *eq = strchr(m, '=');
    if (!eq || eq == m || !eq[1])
      return rigor_usage_error(a->cmd, "--map %s: expected BASE_NAME=CAND_NAME", m);
    for (int s = 0; s < 2; s++) {
      const char *name = s ? eq + 1 : m;
      size_t n = s ? strlen(eq + 1) : (size_t)(eq - m);
      bool found = false;
      for (size_t x = 0; x < an[s]->n_exps && !found; x++)
        found = strlen(an[s]->exps[x].name) == n && strncmp(an[s]->exps[x].name, name, n) == 0;
      if (!found) {
        char held[1024];
        holdings(an[s], held, sizeof held);
        return rigor_usage_error(a->cmd, "--map %s: %s (%s) has no experiment %.*s; it holds %s", m,
                                 s ? "CAND" : "BASE", a->files[s], (int)n, name, held);
      }
    }
  }
  return -1;
}

static int compare_files(const compare_args_t *a) {
  rigor_analysis_t *an[2] = {NULL, NULL};
  size_t n_base = a->n_base ? a->n_base : 1;
  const char *const *side_files[2] = {a->files, a->files + n_base};
  size_t side_n[2] = {n_base, a->n_files - n_base};
  for (int s = 0; s < 2; s++) {
    char err[1024] = "";
    if (rigor_analysis_load(side_files[s], side_n[s], &an[s], err, sizeof err)) {
      fprintf(stderr, "rigor compare: %s\n", err);
      rigor_analysis_free(an[0]);
      return RIGOR_EXIT_USAGE;
    }
  }
  rigor_comparison_t *c = NULL;
  int code = check_map(a, an);
  if (code >= 0) {
    /* a usage error, already printed */
  } else if (rigor_compare(an[0], an[1], &a->opts, &c) == 0 && c->n_rows &&
             rigor_comparison_shares_nothing(c)) {
    /* A table of rows that are all missing says less than one line. */
    char held[2][1024];
    holdings(an[0], held[0], sizeof held[0]);
    holdings(an[1], held[1], sizeof held[1]);
    fprintf(stderr,
            "rigor compare: %s and %s share nothing: BASE holds %s; CAND holds %s "
            "(--map BASE_NAME=CAND_NAME compares experiments by another name)\n",
            side_files[0][0], side_files[1][0], held[0], held[1]);
    code = RIGOR_EXIT_RUN_FAILED;
  } else if (c) {
    rigor_doc_t *doc = rigor_comparison_doc(c);
    bool bad_view = doc && rigor_report_view_apply(&a->view, "compare", doc);
    FILE *out = doc && !bad_view ? rigor_output_open(a->cmd, a->out_path) : NULL;
    int wrc = out ? a->writer->write(doc, out) : -1;
    bool written = out && rigor_output_close(a->cmd, a->out_path, out) == 0 && wrc == 0;
    rigor_doc_free(doc);
    char why[256];
    rigor_comparison_vacuous_reason(c, why, sizeof why);
    code = bad_view  ? RIGOR_EXIT_USAGE
           : written ? exit_for(c->n_compared == 0, c->regression, c->failed, why)
                     : RIGOR_EXIT_CANNOT_WRITE;
  } else {
    fprintf(stderr, "rigor compare: out of memory\n");
    code = RIGOR_EXIT_RUN_FAILED;
  }
  rigor_comparison_free(c);
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
  rigor_tally_t tally = {{0}};
  json_t *all = json_array();
  for (size_t i = 0; i < n_sets; i++) {
    regression = regression || sets[i]->regression;
    for (size_t k = 0; k < sets[i]->n; k++) {
      const rigor_contrast_t *c = &sets[i]->items[k];
      failed = failed || (a->opts.fail_on & (1u << c->verdict));
      tally.count[c->verdict]++;
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
    char counted[600];
    rigor_tally_line(&tally, "contrast", counted, sizeof counted);
    rigor_doc_text(doc, "%s%s%s", counted, regression ? "; REGRESSION: some levels are slower" : "",
                   failed ? "; FAILED: some contrasts have a verdict of --fail-on" : "");
    bad_view = rigor_report_view_apply(&a->view, "compare", doc) != 0;
  }
  json_decref(all);
  FILE *out = doc && !bad_view ? rigor_output_open(a->cmd, a->out_path) : NULL;
  int wrc = out ? a->writer->write(doc, out) : -1;
  bool written = out && rigor_output_close(a->cmd, a->out_path, out) == 0 && wrc == 0;
  rigor_doc_free(doc);
  code = bad_view  ? RIGOR_EXIT_USAGE
         : written ? exit_for(compared == 0, regression, failed,
                              "no contrast has a complete block (both levels ran ok in the same "
                              "block)")
                   : RIGOR_EXIT_CANNOT_WRITE;
done:
  for (size_t i = 0; i < n_sets; i++)
    rigor_contrasts_free(sets[i]);
  free(sets);
  rigor_analysis_free(an);
  return code;
}

/* --threshold, --seed, --fail-on and --session-noise into the options; a usage error says what is
 * wrong. */
static int parse_values(const rigor_command_t *cmd, const char *threshold, const char *seed,
                        const char *fail_on, const char *session_noise, rigor_compare_opts_t *o) {
  char err[256];
  if (session_noise && rigor_parse_percent(session_noise, &o->session_noise, err, sizeof err))
    return rigor_usage_error(cmd, "--session-noise: %s", err);
  if (threshold && rigor_parse_percent(threshold, &o->threshold, err, sizeof err))
    return rigor_usage_error(cmd, "--threshold: %s", err);
  if (seed && rigor_parse_uint(seed, &o->seed, err, sizeof err))
    return rigor_usage_error(cmd, "--seed: %s", err);
  if (fail_on && rigor_fail_on_parse(fail_on, &o->fail_on, err, sizeof err))
    return rigor_usage_error(cmd, "%s", err);
  return -1;
}

int rigor_cmd_compare(int argc, char **argv) {
  compare_args_t a = {.view = RIGOR_REPORT_VIEW_INIT};
  rigor_compare_opts_default(&a.opts);
  const char *threshold = NULL, *seed = NULL, *fail_on = NULL, *format = NULL, *table = NULL,
             *columns = NULL, *width = NULL, *session_noise = NULL;
  rigor_strings_t ignore = {0}, files = {0}, map = {0};
  const rigor_option_t options[] = {
      {"threshold", 0, "PCT", "the smallest change that counts (2% or 0.02; default 2%)",
       .value = &threshold},
      {"fail-on", 0, "LIST",
       "verdicts that fail too: undetermined,inconclusive,invalid,incomparable,"
       "missing",
       .value = &fail_on},
      {"session-noise", 0, "PCT",
       "the sd of a file's level between sessions, allowed for across files (default 5%; 0: "
       "none)",
       .value = &session_noise},
      {"format", 0, "FORMAT", "text (default), md, csv, json or html", .value = &format},
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &a.out_path},
      {"ignore-identity", 0, "PATH", "do not compare this identity field (repeatable)",
       .list = &ignore},
      {"map", 0, "BASE_NAME=CAND_NAME",
       "compare BASE's experiment BASE_NAME with CAND's CAND_NAME (repeatable)", .list = &map},
      {"seed", 0, "N", "the bootstrap's random seed", .value = &seed},
      {"axis", 0, "AXIS", "one FILE: compare the levels of AXIS", .value = &a.axis},
      {"ref", 0, "LEVEL", "with --axis: the reference level (default: the first)", .value = &a.ref},
      {"candidate", 0, "LEVEL", "with --axis: only this level against the reference",
       .value = &a.candidate},
      {"table", 0, "NAME", "only the table NAME", .value = &table},
      {"columns", 0, "A,B,...", "only these columns, in this order", .value = &columns},
      {"width", 0, "N", "fit text to N columns (0: no limit; default $COLUMNS or the terminal)",
       .value = &width},
      {0},
  };
  const rigor_command_t cmd = {"compare",
                               "BASE CAND [OPTION]...\n[OPTION]... BASE... -- CAND...\nFILE --axis "
                               "AXIS [OPTION]...",
                               about, options};
  a.cmd = &cmd;
  /* BASE... -- CAND...: several files a side, each one session. */
  int split = 0;
  for (int i = 1; i < argc && !split; i++)
    if (!strcmp(argv[i], "--")) split = i;
  int code = rigor_args_parse(&cmd, split ? split : argc, argv, &files);
  if (code < 0 && split) {
    a.n_base = files.n;
    for (int i = split + 1; i < argc; i++)
      rigor_strings_add(&files, argv[i]);
    if (a.n_base == 0 || files.n == a.n_base)
      code = rigor_usage_error(&cmd, "BASE... -- CAND... needs at least one file on each side");
  }
  if (code < 0) code = parse_values(&cmd, threshold, seed, fail_on, session_noise, &a.opts);
  if (code < 0 && !(a.writer = rigor_args_writer(&cmd, format))) code = RIGOR_EXIT_USAGE;
  if (code < 0 && ((table && rigor_report_view_set(&a.view, "compare", "--table", table)) ||
                   (columns && rigor_report_view_set(&a.view, "compare", "--columns", columns)) ||
                   (width && rigor_report_view_set(&a.view, "compare", "--width", width))))
    code = RIGOR_EXIT_USAGE;
  a.files = files.v, a.n_files = files.n;
  a.opts.ignore_identity = ignore.v, a.opts.n_ignore = ignore.n;
  a.opts.map = map.v, a.opts.n_map = map.n;
  if (code >= 0) {
    /* help, or a usage error already printed */
  } else if (a.axis && a.n_files == 1)
    code = compare_axis(&a);
  else if (a.axis)
    code = rigor_usage_error(&cmd, "--axis compares the levels of one file, not %zu", a.n_files);
  else if (a.ref || a.candidate)
    code = rigor_usage_error(&cmd, "--ref and --candidate need --axis");
  else if (a.n_files != 2 && !a.n_base)
    code = rigor_usage_error(&cmd,
                             "needs BASE and CAND, BASE... -- CAND... (or FILE --axis AXIS), not "
                             "%zu file%s",
                             a.n_files, a.n_files == 1 ? "" : "s");
  else
    code = compare_files(&a);
  rigor_strings_free(&ignore);
  rigor_strings_free(&map);
  rigor_strings_free(&files);
  return code;
}
