#include "cli.h"
#include "checks.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *to) {
  fprintf(to, "usage: rigor check [--format text|json]\n"
              "Checks this machine for conditions that make measurements noisy or biased.\n"
              "It only reports; it never changes a system setting.\n");
}

static void print_text(const json_t *checks) {
  size_t i, warnings = 0;
  const json_t *c;
  json_array_foreach(checks, i, c) {
    warnings += strcmp(json_string_value(json_object_get(c, "status")), "warn") == 0;
  }
  printf("rigor check: %zu checks, %zu warning%s\n", json_array_size(checks), warnings,
         warnings == 1 ? "" : "s");
  json_array_foreach(checks, i, c) {
    const char *status = json_string_value(json_object_get(c, "status"));
    printf("\n%-11s %-15s %s\n", status, json_string_value(json_object_get(c, "check")),
           json_string_value(json_object_get(c, "detail")));
    printf("%-27s why: %s\n", "", json_string_value(json_object_get(c, "why")));
    const char *advice = json_string_value(json_object_get(c, "advice"));
    if (advice) printf("%-27s do:  %s\n", "", advice);
  }
}

int rigor_cmd_check(int argc, char **argv) {
  bool json = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return RIGOR_EXIT_OK;
    }
    const char *format = NULL;
    if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
      format = argv[++i];
    else if (strncmp(argv[i], "--format=", 9) == 0)
      format = argv[i] + 9;
    if (format && (strcmp(format, "json") == 0 || strcmp(format, "text") == 0)) {
      json = strcmp(format, "json") == 0;
      continue;
    }
    if (format)
      fprintf(stderr, "rigor check: unknown format '%s' (expected text or json)\n", format);
    else
      fprintf(stderr, "rigor check: unknown argument '%s'\n", argv[i]);
    usage(stderr);
    return RIGOR_EXIT_USAGE;
  }
  json_t *checks = rigor_env_check();
  if (!checks) {
    fprintf(stderr, "rigor check: out of memory\n");
    return RIGOR_EXIT_RUN_FAILED;
  }
  if (json) {
    json_dumpf(checks, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
  } else {
    print_text(checks);
  }
  fflush(stdout);
  json_decref(checks);
  return RIGOR_EXIT_OK;
}
