#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli.h"
#include "report.h"
#include "writers.h"

static const char usage[] =
    "usage: rigor report FILE... [--format text|md|csv|json|html] [-o OUT] [--by variant|point]\n";

int rigor_cmd_report(int argc, char **argv) {
  const rigor_writer_t *writer = rigor_writer_find("text");
  rigor_by_t by = RIGOR_BY_VARIANT;
  const char *out_path = NULL;
  const char **files = calloc((size_t)argc, sizeof *files);
  size_t n_files = 0;
  if (!files) return RIGOR_EXIT_USAGE;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      free(files);
      return RIGOR_EXIT_OK;
    }
    bool takes_value = strcmp(arg, "--format") == 0 || strcmp(arg, "-o") == 0 ||
                       strcmp(arg, "--output") == 0 || strcmp(arg, "--by") == 0;
    if (takes_value && i + 1 >= argc) {
      fprintf(stderr, "rigor report: %s needs a value\n%s", arg, usage);
      free(files);
      return RIGOR_EXIT_USAGE;
    }
    if (strcmp(arg, "--format") == 0) {
      if (!(writer = rigor_writer_find(argv[++i]))) {
        fprintf(stderr, "rigor report: unknown format '%s' (%s)\n", argv[i], rigor_writer_names());
        free(files);
        return RIGOR_EXIT_USAGE;
      }
    } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
      out_path = argv[++i];
    } else if (strcmp(arg, "--by") == 0) {
      const char *v = argv[++i];
      if (strcmp(v, "variant") == 0)
        by = RIGOR_BY_VARIANT;
      else if (strcmp(v, "point") == 0)
        by = RIGOR_BY_POINT;
      else {
        fprintf(stderr, "rigor report: --by takes variant or point, not '%s'\n", v);
        free(files);
        return RIGOR_EXIT_USAGE;
      }
    } else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "rigor report: unknown option '%s'\n%s", arg, usage);
      free(files);
      return RIGOR_EXIT_USAGE;
    } else {
      files[n_files++] = arg;
    }
  }
  if (n_files == 0) {
    fprintf(stderr, "rigor report: no results file given\n%s", usage);
    free(files);
    return RIGOR_EXIT_USAGE;
  }
  char err[1024] = "";
  rigor_analysis_t *a = NULL;
  int rc = rigor_analysis_load(files, n_files, &a, err, sizeof err);
  free(files);
  if (rc) {
    fprintf(stderr, "rigor report: %s\n", err);
    return RIGOR_EXIT_USAGE;
  }
  FILE *out = stdout;
  if (out_path && !(out = fopen(out_path, "w"))) {
    perror(out_path);
    rigor_analysis_free(a);
    return RIGOR_EXIT_USAGE;
  }
  rigor_doc_t *doc = rigor_report_doc(a, by);
  rc = doc ? writer->write(doc, out) : RIGOR_ENOMEM;
  rigor_doc_free(doc);
  if (out != stdout && fclose(out) != 0) rc = -1;
  rigor_analysis_free(a);
  if (rc) {
    fprintf(stderr, "rigor report: could not write the report%s%s\n", out_path ? " to " : "",
            out_path ? out_path : "");
    return RIGOR_EXIT_RUN_FAILED;
  }
  return RIGOR_EXIT_OK;
}
