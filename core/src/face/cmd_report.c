#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli.h"
#include "report.h"
#include "report_view.h"
#include "writers.h"

static const char usage[] =
    "usage: rigor report FILE... [--format text|md|csv|json|html] [-o OUT] [--by variant|point]\n"
    "                            [--ref AXIS=LEVEL]... [--table NAME] [--columns A,B,...]\n"
    "                            [--width N]\n";

int rigor_cmd_report(int argc, char **argv) {
  const rigor_writer_t *writer = rigor_writer_find("text");
  rigor_report_opts_t ropts = {.by = RIGOR_BY_VARIANT};
  rigor_report_view_t view = RIGOR_REPORT_VIEW_INIT;
  const char *out_path = NULL;
  const char **files = calloc((size_t)argc, sizeof *files);
  const char **refs = calloc((size_t)argc, sizeof *refs);
  size_t n_files = 0;
  int code = RIGOR_EXIT_USAGE;
  rigor_analysis_t *a = NULL;
  if (!files || !refs) goto done;
  ropts.refs = refs;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      code = RIGOR_EXIT_OK;
      goto done;
    }
    bool takes_value = strcmp(arg, "--format") == 0 || strcmp(arg, "-o") == 0 ||
                       strcmp(arg, "--output") == 0 || strcmp(arg, "--by") == 0 ||
                       strcmp(arg, "--ref") == 0 || rigor_report_view_option(arg);
    if (takes_value && i + 1 >= argc) {
      fprintf(stderr, "rigor report: %s needs a value\n%s", arg, usage);
      goto done;
    }
    if (strcmp(arg, "--format") == 0) {
      if (!(writer = rigor_writer_find(argv[++i]))) {
        fprintf(stderr, "rigor report: unknown format '%s' (%s)\n", argv[i], rigor_writer_names());
        goto done;
      }
    } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
      out_path = argv[++i];
    } else if (strcmp(arg, "--ref") == 0) {
      refs[ropts.n_refs++] = argv[++i];
    } else if (rigor_report_view_option(arg)) {
      if (rigor_report_view_set(&view, "report", arg, argv[++i])) goto done;
    } else if (strcmp(arg, "--by") == 0) {
      const char *v = argv[++i];
      if (strcmp(v, "variant") == 0)
        ropts.by = RIGOR_BY_VARIANT;
      else if (strcmp(v, "point") == 0)
        ropts.by = RIGOR_BY_POINT;
      else {
        fprintf(stderr, "rigor report: --by takes variant or point, not '%s'\n", v);
        goto done;
      }
    } else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "rigor report: unknown option '%s'\n%s", arg, usage);
      goto done;
    } else {
      files[n_files++] = arg;
    }
  }
  if (n_files == 0) {
    fprintf(stderr, "rigor report: no results file given\n%s", usage);
    goto done;
  }
  char err[1024] = "";
  if (rigor_analysis_load(files, n_files, &a, err, sizeof err) ||
      rigor_report_refs_check(a, ropts.refs, ropts.n_refs, err, sizeof err)) {
    fprintf(stderr, "rigor report: %s\n", err);
    goto done;
  }
  rigor_doc_t *doc = rigor_report_doc(a, &ropts);
  if (doc && rigor_report_view_apply(&view, "report", doc)) {
    rigor_doc_free(doc);
    goto done;
  }
  FILE *out = stdout;
  if (out_path && !(out = fopen(out_path, "w"))) {
    perror(out_path);
    rigor_doc_free(doc);
    goto done;
  }
  int rc = doc ? writer->write(doc, out) : RIGOR_ENOMEM;
  rigor_doc_free(doc);
  if (out != stdout && fclose(out) != 0) rc = -1;
  code = RIGOR_EXIT_OK;
  if (rc) {
    fprintf(stderr, "rigor report: could not write the report%s%s\n", out_path ? " to " : "",
            out_path ? out_path : "");
    code = RIGOR_EXIT_RUN_FAILED;
  }
done:
  rigor_analysis_free(a);
  free(files), free(refs);
  return code;
}
