#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli.h"
#include "report.h"
#include "report_view.h"
#include "writers.h"

static const char about[] =
    "Statistics per experiment, variant and point over every results FILE: n, median, P95, P99,\n"
    "mean, sd, CV, min, max, derived rates, #wrong and the gate's verdict; the gate table, the\n"
    "expectations, and the contrasts of every matrix axis with several levels against its first\n"
    "level (or the level --ref names), paired by block.\n";

int rigor_report_print(const rigor_analysis_t *a) {
  rigor_report_opts_t ropts = {.by = RIGOR_BY_VARIANT};
  rigor_report_view_t view = RIGOR_REPORT_VIEW_INIT;
  const rigor_writer_t *writer = rigor_writer_find("text");
  rigor_doc_t *doc = writer ? rigor_report_doc(a, &ropts) : NULL;
  int rc = doc ? rigor_report_view_apply(&view, "report", doc) : -1;
  if (!rc) rc = writer->write(doc, stdout) ? -1 : 0;
  if (!doc) fprintf(stderr, "rigor report: out of memory\n");
  rigor_doc_free(doc);
  fflush(stdout);
  return rc;
}

int rigor_cmd_report(int argc, char **argv) {
  const char *format = NULL, *out_path = NULL, *by = NULL, *table = NULL, *columns = NULL,
             *width = NULL;
  rigor_report_view_t view = RIGOR_REPORT_VIEW_INIT;
  rigor_strings_t refs = {0}, files = {0};
  const rigor_option_t options[] = {
      {"format", 0, "FORMAT", "text (default), md, csv, json or html", .value = &format},
      {"output", 'o', "OUT", "write the report to OUT instead of standard output",
       .value = &out_path},
      {"by", 0, "WHAT", "rows by variant (default) or by point", .value = &by},
      {"ref", 0, "AXIS=LEVEL", "contrast AXIS against LEVEL instead of its first (repeatable)",
       .list = &refs},
      {"table", 0, "NAME", "only the table NAME (CSV: the statistics unless NAME says another)",
       .value = &table},
      {"columns", 0, "A,B,...", "only these columns, in this order", .value = &columns},
      {"width", 0, "N", "fit text to N columns (0: no limit; default $COLUMNS or the terminal)",
       .value = &width},
      {0},
  };
  const rigor_command_t cmd = {"report", "FILE... [OPTION]...", about, options};
  rigor_analysis_t *a = NULL;
  int code = rigor_args_parse(&cmd, argc, argv, &files);
  if (code < 0 && files.n == 0) code = rigor_usage_error(&cmd, "no results file given");
  const rigor_writer_t *writer = code < 0 ? rigor_args_writer(&cmd, format) : NULL;
  if (code < 0 && !writer) code = RIGOR_EXIT_USAGE;
  rigor_report_opts_t ropts = {.by = RIGOR_BY_VARIANT, .refs = refs.v, .n_refs = refs.n};
  static const char *const bys[] = {"variant", "point", NULL};
  int k = code < 0 && by ? rigor_args_choice(&cmd, "--by", by, bys) : 0;
  if (k < 0) code = RIGOR_EXIT_USAGE;
  ropts.by = k == 1 ? RIGOR_BY_POINT : RIGOR_BY_VARIANT;
  if (code < 0 && ((table && rigor_report_view_set(&view, "report", "--table", table)) ||
                   (columns && rigor_report_view_set(&view, "report", "--columns", columns)) ||
                   (width && rigor_report_view_set(&view, "report", "--width", width))))
    code = RIGOR_EXIT_USAGE;
  if (code >= 0) goto done;
  char err[1024] = "";
  code = RIGOR_EXIT_USAGE;
  if (rigor_analysis_load(files.v, files.n, &a, err, sizeof err) ||
      rigor_report_refs_check(a, ropts.refs, ropts.n_refs, err, sizeof err)) {
    fprintf(stderr, "rigor report: %s\n", err);
    goto done;
  }
  rigor_doc_t *doc = rigor_report_doc(a, &ropts);
  if (doc && rigor_report_view_apply(&view, "report", doc)) {
    rigor_doc_free(doc);
    goto done;
  }
  FILE *out = rigor_output_open(&cmd, out_path);
  if (!out) {
    rigor_doc_free(doc);
    code = RIGOR_EXIT_CANNOT_WRITE;
    goto done;
  }
  int rc = doc ? writer->write(doc, out) : RIGOR_ENOMEM;
  rigor_doc_free(doc);
  code = rigor_output_close(&cmd, out_path, out) || rc ? RIGOR_EXIT_CANNOT_WRITE : RIGOR_EXIT_OK;
done:
  rigor_analysis_free(a);
  rigor_strings_free(&files);
  rigor_strings_free(&refs);
  return code;
}
