#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "import.h"
#include "rigor/plugin.h"

static const char about[] =
    "Writes another tool's results as a rigor results file, keeping what the source records and\n"
    "inventing nothing: what it does not record is null or absent, and the import says which\n"
    "statistics that leaves out. A malformed input is refused with its file and line (or JSON\n"
    "path), and nothing is written.\n"
    "\n"
    "formats:\n";

/* The about text with one line per format. */
static void about_with_formats(char *buf, size_t cap) {
  size_t used = (size_t)snprintf(buf, cap, "%s", about);
  for (const rigor_importer_t *i = rigor_importers; i->format && used < cap; i++)
    used += (size_t)snprintf(buf + used, cap - used, "  %-17s %s\n", i->format, i->what);
}

const rigor_importer_t *rigor_args_importer(const rigor_command_t *cmd, const char *option,
                                            const char *format) {
  const char *names[16];
  size_t n = 0;
  for (const rigor_importer_t *i = rigor_importers; i->format && n + 1 < 16; i++)
    names[n++] = i->format;
  names[n] = NULL;
  int k = rigor_args_choice(cmd, option, format, names);
  return k < 0 ? NULL : &rigor_importers[k];
}

int rigor_import_to(const rigor_command_t *cmd, const rigor_importer_t *imp,
                    const char *const *files, size_t n, const char *out, bool replace, bool quiet) {
  rigor_import_opts_t o = {
      .out = out, .replace = replace, .rigor_version = RIGOR_VERSION, .rigor_git = RIGOR_GIT_HASH};
  rigor_import_counts_t counts;
  char err[2048] = "";
  int rc = rigor_import_write(imp, files, n, &o, &counts, err, sizeof err);
  if (rc) {
    fprintf(stderr, "rigor %s: %s; nothing was written\n", cmd->name, err);
  } else if (!quiet) {
    fprintf(stderr, "%s: %zu experiment%s, %zu runs, %zu samples from %zu %s file%s\n", out,
            counts.experiments, counts.experiments == 1 ? "" : "s", counts.runs, counts.samples, n,
            imp->format, n == 1 ? "" : "s");
    size_t i;
    json_t *note;
    json_array_foreach(counts.notes, i, note) fprintf(stderr, "  %s\n", json_string_value(note));
  }
  json_decref(counts.notes);
  return rc == 0 ? RIGOR_EXIT_OK : rc == RIGOR_EIO ? RIGOR_EXIT_RUN_FAILED : RIGOR_EXIT_USAGE;
}

int rigor_cmd_import(int argc, char **argv) {
  const char *out = NULL;
  bool force = false, quiet = false;
  rigor_strings_t args = {0};
  const rigor_option_t options[] = {
      {"output", 'o', "OUT", "the results file to write (required)", .value = &out},
      {"force", 0, NULL, "replace OUT when it exists", .flag = &force},
      {"quiet", 'q', NULL, "print nothing but errors", .flag = &quiet},
      {0},
  };
  char text[2048];
  about_with_formats(text, sizeof text);
  const rigor_command_t cmd = {"import", "FORMAT FILE... -o OUT [OPTION]...", text, options};
  int rc = rigor_args_parse(&cmd, argc, argv, &args);
  if (rc < 0 && args.n == 0) rc = rigor_usage_error(&cmd, "no FORMAT given");
  const rigor_importer_t *imp = rc < 0 ? rigor_args_importer(&cmd, "FORMAT", args.v[0]) : NULL;
  if (rc < 0 && !imp) rc = RIGOR_EXIT_USAGE;
  if (rc < 0 && args.n < 2) rc = rigor_usage_error(&cmd, "no FILE given");
  if (rc < 0 && !out) rc = rigor_usage_error(&cmd, "no -o OUT given: the results file to write");
  if (rc < 0) rc = rigor_import_to(&cmd, imp, args.v + 1, args.n - 1, out, force, quiet);
  rigor_strings_free(&args);
  return rc;
}
