#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli.h"
#include "rounds.h"
#include "writers.h"

static const char about[] =
    "Each FILE is a round, in order; each row against the baseline (the first round), the\n"
    "previous valid round and the best so far, invalid rounds skipped with their reason. One\n"
    "FILE whose matrix has an axis of several levels: its levels are the rounds (the first is\n"
    "the baseline).\n";

/* A file that cannot be read as results is the caller's mistake, not an invalid round: each is
 * loaded as report and compare load it, and refused in their words, before rounds are judged.
 * Returns 0, or -1 after saying why. */
static int every_file_readable(const rigor_strings_t *files) {
  for (size_t i = 0; i < files->n; i++) {
    rigor_analysis_t *a = NULL;
    char err[2048] = "";
    const char *path = files->v[i];
    int rc = rigor_analysis_load(&path, 1, &a, err, sizeof err);
    rigor_analysis_free(a);
    if (rc != 0) {
      fprintf(stderr, "rigor rounds: %s\n", err[0] ? err : "out of memory");
      return -1;
    }
  }
  return 0;
}

int rigor_cmd_rounds(int argc, char **argv) {
  const char *metric = NULL, *axis = NULL, *format = NULL, *out_path = NULL;
  rigor_strings_t files = {0};
  const rigor_option_t options[] = {
      {"metric", 0, "NAME", "judge a plugin metric instead of the row's figure", .value = &metric},
      {"axis", 0, "AXIS", "one file: the levels of AXIS are the rounds", .value = &axis},
      {"format", 0, "FORMAT", "text (default), md, csv, json or html", .value = &format},
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &out_path},
      {0},
  };
  const rigor_command_t cmd = {"rounds", "FILE... [OPTION]...", about, options};
  int code = rigor_args_parse(&cmd, argc, argv, &files);
  if (code < 0 && files.n == 0) code = rigor_usage_error(&cmd, "no results file given");
  const rigor_writer_t *writer = code < 0 ? rigor_args_writer(&cmd, format) : NULL;
  if (code < 0 && !writer) code = RIGOR_EXIT_USAGE;
  if (code >= 0) {
    rigor_strings_free(&files);
    return code;
  }
  if (every_file_readable(&files) != 0) {
    rigor_strings_free(&files);
    return RIGOR_EXIT_USAGE;
  }
  rigor_doc_t *doc = NULL;
  char err[2048] = "";
  int rc = rigor_rounds_doc(files.v, files.n, metric, axis, &doc, err, sizeof err);
  if (rc == RIGOR_ENOENT) {
    code = rigor_usage_error(&cmd, "%s", err);
  } else if (rc) {
    fprintf(stderr, "rigor rounds: %s\n", err[0] ? err : "none of the files could be read");
    code = RIGOR_EXIT_USAGE;
  } else {
    FILE *out = rigor_output_open(&cmd, out_path);
    code = RIGOR_EXIT_CANNOT_WRITE;
    if (out) {
      int wrc = writer->write(doc, out);
      code =
          rigor_output_close(&cmd, out_path, out) || wrc ? RIGOR_EXIT_CANNOT_WRITE : RIGOR_EXIT_OK;
    }
  }
  rigor_doc_free(doc);
  rigor_strings_free(&files);
  return code;
}
