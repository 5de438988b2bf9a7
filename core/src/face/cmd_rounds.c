#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rounds.h"
#include "writers.h"

static const char usage[] =
    "usage: rigor rounds FILE... [--metric NAME] [--axis AXIS] [--format text|md|csv|json|html]\n"
    "  each FILE is a round; one FILE with a matrix axis of several levels: its levels are the\n"
    "  rounds (the first is the baseline)\n";

int rigor_cmd_rounds(int argc, char **argv) {
  const char *metric = NULL, *axis = NULL;
  const rigor_writer_t *writer = rigor_writer_find("text");
  const char **files = calloc((size_t)argc, sizeof *files);
  size_t n = 0;
  if (!files) return RIGOR_EXIT_USAGE;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      free(files);
      return RIGOR_EXIT_OK;
    }
    if ((strcmp(arg, "--metric") == 0 || strcmp(arg, "--format") == 0 ||
         strcmp(arg, "--axis") == 0) &&
        i + 1 >= argc) {
      fprintf(stderr, "rigor rounds: %s needs a value\n%s", arg, usage);
      free(files);
      return RIGOR_EXIT_USAGE;
    }
    if (strcmp(arg, "--metric") == 0) {
      metric = argv[++i];
    } else if (strcmp(arg, "--axis") == 0) {
      axis = argv[++i];
    } else if (strcmp(arg, "--format") == 0) {
      const char *f = argv[++i];
      if (!(writer = rigor_writer_find(f))) {
        fprintf(stderr, "rigor rounds: unknown format '%s' (%s)\n", f, rigor_writer_names());
        free(files);
        return RIGOR_EXIT_USAGE;
      }
    } else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "rigor rounds: unknown option '%s'\n%s", arg, usage);
      free(files);
      return RIGOR_EXIT_USAGE;
    } else {
      files[n++] = arg;
    }
  }
  if (n == 0) {
    fprintf(stderr, "rigor rounds: no results file given\n%s", usage);
    free(files);
    return RIGOR_EXIT_USAGE;
  }
  rigor_doc_t *doc = NULL;
  int rc = rigor_rounds_doc(files, n, metric, axis, &doc);
  if (doc && rc == 0) writer->write(doc, stdout);
  rigor_doc_free(doc);
  if (rc == RIGOR_ENOENT)
    fprintf(stderr, "rigor rounds: --axis %s: %s\n", axis,
            n == 1 ? "the file has no matrix axis of that name with several levels"
                   : "the levels of an axis are rounds of one file; give one file");
  free(files);
  if (rc == RIGOR_ENOENT) return RIGOR_EXIT_USAGE;
  if (rc) {
    fprintf(stderr, "rigor rounds: none of the files could be read\n");
    return RIGOR_EXIT_USAGE;
  }
  return RIGOR_EXIT_OK;
}
