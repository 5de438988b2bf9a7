/* Subcommands and the one option parser they share. Each subcommand takes argv from its name on
 * (argv[0] == "run") and returns the process exit code: 0 good, 1 a run crashed/timed out/errored,
 * 2 usage or config error, 3 correctness failed, 4 compare or history check found a regression,
 * 5 everything skipped. */
#ifndef RIGOR_CLI_H
#define RIGOR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
  RIGOR_EXIT_OK = 0,
  RIGOR_EXIT_RUN_FAILED = 1,
  RIGOR_EXIT_CANNOT_WRITE = 1, /* the output (-o, standard output) cannot be opened or written */
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
int rigor_cmd_import(int argc, char **argv);     /* cmd_import.c */
int rigor_cmd_ab(int argc, char **argv);         /* cmd_ab.c */
int rigor_cmd_screen(int argc, char **argv);     /* cmd_screen.c */

/* cmd_report.c: what `rigor report FILE` prints of an analysis already loaded (text, every
 * table) on stdout; rigor run's closing report. Returns 0, or -1 with a message on stderr. */
struct rigor_analysis;
int rigor_report_print(const struct rigor_analysis *a);

/* cmd_store.c: the store a command reads: `given` (--db), else $RIGOR_DB, else rigor.db. */
const char *rigor_store_url(const char *given);

/* ---- the option parser ---------------------------------------------------------------------
 * Every subcommand declares its options in one table; the parser takes `--name value`,
 * `--name=value`, `-x value`, flags, and `--` (what follows is positional), prints --help from
 * the table (one line per option), and words every usage error one way:
 *
 *   rigor run: unknown option '--outptu' (did you mean '--output'?)
 *   usage: rigor run FILE [OPTION]...
 *   See 'rigor run --help'.
 */

/* A growing list of borrowed strings, NULL-terminated once it holds one (v is NULL before). */
typedef struct rigor_strings {
  const char **v;
  size_t n, cap;
} rigor_strings_t;

int rigor_strings_add(rigor_strings_t *s, const char *text); /* 0 or -1 out of memory */
void rigor_strings_free(rigor_strings_t *s);

/* One option. Exactly one of flag, value and list is set: a flag takes no value; a value's last
 * occurrence wins; a list collects every occurrence in order. */
typedef struct rigor_option {
  const char *name; /* long name without the dashes: "output" */
  char letter;      /* short form ('o' for -o), 0 for none */
  const char *arg;  /* the value's name in help and errors ("OUT"); NULL for a flag */
  const char *help; /* one line */
  bool *flag;
  const char **value;
  rigor_strings_t *list;
} rigor_option_t;

typedef struct rigor_command {
  const char *name;              /* "run", "store add" */
  const char *usage;             /* after the name; one form per line: "FILE [OPTION]..." */
  const char *about;             /* what --help says it does, before the options */
  const rigor_option_t *options; /* ends with an entry whose name is NULL */
} rigor_command_t;

/* Parses argv[1..argc) into the options' targets and `positional` (may be NULL: none allowed).
 * Returns -1 to go on; RIGOR_EXIT_OK after printing --help to stdout; RIGOR_EXIT_USAGE after
 * printing a usage error to stderr. */
int rigor_args_parse(const rigor_command_t *cmd, int argc, char **argv,
                     rigor_strings_t *positional);

/* Prints "rigor NAME: MESSAGE", the usage line and the pointer to --help to stderr; returns
 * RIGOR_EXIT_USAGE. */
int rigor_usage_error(const rigor_command_t *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The index of `value` among the NULL-terminated `choices`; otherwise a usage error naming the
 * option, the choices and the closest one, and -1. */
int rigor_args_choice(const rigor_command_t *cmd, const char *option, const char *value,
                      const char *const *choices);

/* A report writer by name ("text" when value is NULL); NULL after a usage error as above. */
const struct rigor_writer *rigor_args_writer(const rigor_command_t *cmd, const char *value);

/* -o/--output: the file opened for writing, or stdout when path is NULL or "-". NULL after
 * printing why it cannot be opened. rigor_output_close returns 0, or -1 after printing that the
 * output could not be written. */
FILE *rigor_output_open(const rigor_command_t *cmd, const char *path);
int rigor_output_close(const rigor_command_t *cmd, const char *path, FILE *out);

struct rigor_importer;
/* cmd_import.c: the importer `format` names, or NULL after a usage error that names `option`
 * and lists the formats. */
const struct rigor_importer *rigor_args_importer(const rigor_command_t *cmd, const char *option,
                                                 const char *format);
/* cmd_import.c: converts `files` with `imp` into the results file `out` (replaced when
 * `replace`), says what it wrote and what the source leaves out unless `quiet`; the exit code. */
int rigor_import_to(const rigor_command_t *cmd, const struct rigor_importer *imp,
                    const char *const *files, size_t n, const char *out, bool replace, bool quiet);

#endif
