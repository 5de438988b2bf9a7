#include "cli.h"
#include "checks.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char about[] =
    "Checks this machine for conditions that make measurements noisy or biased (governor, boost,\n"
    "load, other busy processes, ASLR, swap, a debug build), and says why each matters and what\n"
    "to do. It only reports; it never changes a system setting.\n";

static void print_text(FILE *out, const json_t *checks) {
  size_t i, warnings = 0;
  const json_t *c;
  json_array_foreach(checks, i, c) {
    warnings += strcmp(json_string_value(json_object_get(c, "status")), "warn") == 0;
  }
  fprintf(out, "rigor check: %zu checks, %zu warning%s\n", json_array_size(checks), warnings,
          warnings == 1 ? "" : "s");
  json_array_foreach(checks, i, c) {
    const char *status = json_string_value(json_object_get(c, "status"));
    fprintf(out, "\n%-11s %-15s %s\n", status, json_string_value(json_object_get(c, "check")),
            json_string_value(json_object_get(c, "detail")));
    fprintf(out, "%-27s why: %s\n", "", json_string_value(json_object_get(c, "why")));
    const char *advice = json_string_value(json_object_get(c, "advice"));
    if (advice) fprintf(out, "%-27s do:  %s\n", "", advice);
  }
}

int rigor_cmd_check(int argc, char **argv) {
  const char *format = NULL, *out_path = NULL;
  const rigor_option_t options[] = {
      {"format", 0, "FORMAT", "text (default) or json", .value = &format},
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &out_path},
      {0},
  };
  const rigor_command_t cmd = {"check", "[OPTION]...", about, options};
  static const char *const formats[] = {"text", "json", NULL};
  int code = rigor_args_parse(&cmd, argc, argv, NULL);
  int fmt = code < 0 && format ? rigor_args_choice(&cmd, "--format", format, formats) : 0;
  if (fmt < 0) code = RIGOR_EXIT_USAGE;
  if (code >= 0) return code;
  json_t *checks = rigor_env_check();
  if (!checks) {
    fprintf(stderr, "rigor check: out of memory\n");
    return RIGOR_EXIT_RUN_FAILED;
  }
  FILE *out = rigor_output_open(&cmd, out_path);
  code = out ? RIGOR_EXIT_OK : RIGOR_EXIT_CANNOT_WRITE;
  if (out && fmt == 1) {
    json_dumpf(checks, out, JSON_INDENT(2));
    fputc('\n', out);
  } else if (out) {
    print_text(out, checks);
  }
  if (out && rigor_output_close(&cmd, out_path, out)) code = RIGOR_EXIT_CANNOT_WRITE;
  json_decref(checks);
  return code;
}
