#include "cli.h"

#include <stdio.h>
#include <string.h>

static const struct command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
} commands[] = {
    {"run", rigor_cmd_run, "run an experiment file, one fresh process per run"},
    {"plan", rigor_cmd_plan, "print the schedule, block by block, without running"},
    {"validate", rigor_cmd_validate, "parse and check a file against the plugins' schemas"},
    {"config", rigor_cmd_config, "print the canonical resolved experiment and its hash"},
    {"plugins", rigor_cmd_plugins, "list plugins; with NAME, its params and metrics"},
    {"report", rigor_cmd_report, "statistics and verdicts of results files"},
    {"compare", rigor_cmd_compare, "regression verdicts between two results files"},
    {"rounds", rigor_cmd_rounds, "a sequence of results files as rounds"},
    {"store", rigor_cmd_store, "import results into a database; list and export them"},
    {"history", rigor_cmd_history, "series over commits, change points, the CI gate"},
    {"check", rigor_cmd_check, "check this machine for what disturbs measurements"},
    {"new-plugin", rigor_cmd_new_plugin, "write a plugin template, ready to build"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: rigor COMMAND [ARGS...]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\nrigor COMMAND --help shows a command's options; rigor --version its version.\n"
             "exit codes: 0 good, 1 a run failed, 2 usage or config error, 3 correctness failed,\n"
             "            4 regression found, 5 everything skipped\n");
}

int rigor_cli_main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return RIGOR_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    printf("rigor %s (%s)\n", RIGOR_VERSION, RIGOR_GIT_HASH);
    return RIGOR_EXIT_OK;
  }
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return RIGOR_EXIT_OK;
  }
  if (!strcmp(cmd, "__child")) return rigor_cmd_child(argc - 1, argv + 1);
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(cmd, commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "rigor: unknown command '%s'\n\n", cmd);
  usage(stderr);
  return RIGOR_EXIT_USAGE;
}
