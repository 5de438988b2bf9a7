#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "writers.h"
#include "units.h"

static const char usage[] =
    "usage: rigor compare BASE CAND [--threshold 2%] [--format text|md|csv|json|html] "
    "[--ignore-identity PATH]... [--seed N]\n";

int rigor_cmd_compare(int argc, char **argv) {
  rigor_compare_opts_t opts;
  rigor_compare_opts_default(&opts);
  const char *files[2] = {NULL, NULL}, **ignore = calloc((size_t)argc, sizeof *ignore);
  size_t n_files = 0;
  const rigor_writer_t *writer = rigor_writer_find("text");
  int rc = RIGOR_EXIT_USAGE;
  if (!ignore) return RIGOR_EXIT_USAGE;
  opts.ignore_identity = ignore;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    char err[256];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      free(ignore);
      return RIGOR_EXIT_OK;
    }
    bool takes_value = strcmp(arg, "--threshold") == 0 || strcmp(arg, "--format") == 0 ||
                       strcmp(arg, "--ignore-identity") == 0 || strcmp(arg, "--seed") == 0;
    if (takes_value && i + 1 >= argc) {
      fprintf(stderr, "rigor compare: %s needs a value\n%s", arg, usage);
      goto done;
    }
    if (strcmp(arg, "--threshold") == 0) {
      if (rigor_parse_percent(argv[++i], &opts.threshold, err, sizeof err) ||
          !(opts.threshold >= 0)) {
        fprintf(stderr, "rigor compare: --threshold: %s\n", err);
        goto done;
      }
    } else if (strcmp(arg, "--format") == 0) {
      const char *f = argv[++i];
      if (!(writer = rigor_writer_find(f))) {
        fprintf(stderr, "rigor compare: unknown format '%s' (%s)\n", f, rigor_writer_names());
        goto done;
      }
    } else if (strcmp(arg, "--ignore-identity") == 0) {
      ignore[opts.n_ignore++] = argv[++i];
    } else if (strcmp(arg, "--seed") == 0) {
      if (rigor_parse_uint(argv[++i], &opts.seed, err, sizeof err)) {
        fprintf(stderr, "rigor compare: --seed: %s\n", err);
        goto done;
      }
    } else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "rigor compare: unknown option '%s'\n%s", arg, usage);
      goto done;
    } else if (n_files < 2) {
      files[n_files++] = arg;
    } else {
      fprintf(stderr, "rigor compare: too many files ('%s')\n%s", arg, usage);
      goto done;
    }
  }
  if (n_files != 2) {
    fprintf(stderr, "rigor compare: needs BASE and CAND\n%s", usage);
    goto done;
  }
  rigor_analysis_t *a[2] = {NULL, NULL};
  for (int s = 0; s < 2; s++) {
    char err[1024] = "";
    if (rigor_analysis_load(&files[s], 1, &a[s], err, sizeof err)) {
      fprintf(stderr, "rigor compare: %s\n", err);
      rigor_analysis_free(a[0]);
      goto done;
    }
  }
  rigor_comparison_t *c = NULL;
  if (rigor_compare(a[0], a[1], &opts, &c) == 0) {
    rigor_doc_t *doc = rigor_comparison_doc(c);
    if (doc) writer->write(doc, stdout);
    rigor_doc_free(doc);
    rc = c->regression ? RIGOR_EXIT_REGRESSION : RIGOR_EXIT_OK;
    rigor_comparison_free(c);
  } else {
    fprintf(stderr, "rigor compare: out of memory\n");
    rc = RIGOR_EXIT_RUN_FAILED;
  }
  rigor_analysis_free(a[0]);
  rigor_analysis_free(a[1]);
done:
  free(ignore);
  return rc;
}
