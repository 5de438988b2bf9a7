/* Subcommands. Each takes argv from the subcommand's name on (argv[0] == "run") and returns the
 * process exit code: 0 good, 1 a run crashed/timed out/errored, 2 usage or config error,
 * 3 correctness failed, 4 compare or history check found a regression, 5 everything skipped. */
#ifndef RIGOR_CLI_H
#define RIGOR_CLI_H

enum {
  RIGOR_EXIT_OK = 0,
  RIGOR_EXIT_RUN_FAILED = 1,
  RIGOR_EXIT_USAGE = 2,
  RIGOR_EXIT_CHECK_FAILED = 3,
  RIGOR_EXIT_REGRESSION = 4,
  RIGOR_EXIT_ALL_SKIPPED = 5,
};

int rigor_cli_main(int argc, char **argv);

int rigor_cmd_run(int argc, char **argv);        /* cmd_run.c */
int rigor_cmd_plugins(int argc, char **argv);    /* cmd_plugins.c */
int rigor_cmd_plan(int argc, char **argv);       /* cmd_plan.c */
int rigor_cmd_validate(int argc, char **argv);   /* cmd_validate.c */
int rigor_cmd_config(int argc, char **argv);     /* cmd_config.c */
int rigor_cmd_report(int argc, char **argv);     /* cmd_report.c */
int rigor_cmd_compare(int argc, char **argv);    /* cmd_compare.c */
int rigor_cmd_rounds(int argc, char **argv);     /* cmd_rounds.c */
int rigor_cmd_check(int argc, char **argv);      /* cmd_check.c */
int rigor_cmd_child(int argc, char **argv);      /* cmd_child.c: one run, started by the runner */
int rigor_cmd_new_plugin(int argc, char **argv); /* cmd_new_plugin.c */
int rigor_cmd_store(int argc, char **argv);      /* cmd_store.c */
int rigor_cmd_history(int argc, char **argv);    /* cmd_history.c */

/* cmd_store.c: the store a command reads: `given` (--db), else $RIGOR_DB, else rigor.db. */
const char *rigor_store_url(const char *given);

#endif
