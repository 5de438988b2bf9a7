#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "writers.h"

/* ---- the command table -------------------------------------------------------------------- */

static const struct command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;
} commands[] = {
    {"run", rigor_cmd_run, "run an experiment file, one fresh process per run"},
    {"ab", rigor_cmd_ab, "is B faster than A: commands or builds interleaved, one answer"},
    {"plan", rigor_cmd_plan, "print the schedule, block by block, without running"},
    {"validate", rigor_cmd_validate, "parse and check files against the plugins' schemas"},
    {"config", rigor_cmd_config, "print the canonical resolved experiment and its hash"},
    {"plugins", rigor_cmd_plugins, "list plugins; with NAME, its params and metrics"},
    {"report", rigor_cmd_report, "statistics and verdicts of results files"},
    {"compare", rigor_cmd_compare, "regression verdicts between two results files"},
    {"rounds", rigor_cmd_rounds, "a sequence of results files as rounds"},
    {"import", rigor_cmd_import, "write other tools' results as a rigor results file"},
    {"store", rigor_cmd_store, "import results into a database; list and export them"},
    {"history", rigor_cmd_history, "series over commits, change points, the CI gate"},
    {"screen", rigor_cmd_screen, "judge every node of a Slurm cluster against the fleet"},
    {"check", rigor_cmd_check, "check this machine for what disturbs measurements"},
    {"new-plugin", rigor_cmd_new_plugin, "write a plugin template, ready to build"},
};
#define N_COMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *f) {
  fprintf(f, "usage: rigor COMMAND [ARGS...]\n\ncommands:\n");
  for (size_t i = 0; i < N_COMMANDS; i++)
    fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
  fprintf(f,
          "\nrigor COMMAND --help lists a command's options; rigor --version prints the version.\n"
          "Options take their value as --name VALUE or --name=VALUE.\n"
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
  /* A campaign's driver and its job steps, inside a Slurm allocation (cmd_run.c). */
  if (!strcmp(cmd, "__campaign") || !strcmp(cmd, "__step"))
    return rigor_cmd_run(argc - 1, argv + 1);
  if (!strcmp(cmd, "__screen")) return rigor_cmd_screen(argc - 1, argv + 1);
  const char *names[N_COMMANDS];
  for (size_t i = 0; i < N_COMMANDS; i++) {
    if (!strcmp(cmd, commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
    names[i] = commands[i].name;
  }
  const char *near = rigor_closest(cmd, names, N_COMMANDS);
  fprintf(stderr, "rigor: unknown %s '%s'", cmd[0] == '-' ? "option" : "command", cmd);
  if (near) fprintf(stderr, " (did you mean '%s'?)", near);
  fprintf(stderr, "\nusage: rigor COMMAND [ARGS...]\nSee 'rigor --help'.\n");
  return RIGOR_EXIT_USAGE;
}

/* ---- the option parser -------------------------------------------------------------------- */

int rigor_strings_add(rigor_strings_t *s, const char *text) {
  if (s->n + 1 >= s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    const char **v = realloc(s->v, cap * sizeof *v);
    if (!v) return -1;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = text;
  s->v[s->n] = NULL;
  return 0;
}

void rigor_strings_free(rigor_strings_t *s) {
  free(s->v);
  *s = (rigor_strings_t){0};
}

static const rigor_option_t help_option = {"help", 'h',  NULL, "print this help and exit",
                                           NULL,   NULL, NULL};

static void print_usage_lines(FILE *f, const rigor_command_t *cmd) {
  const char *form = cmd->usage ? cmd->usage : "";
  for (bool first = true; first || *form; first = false) {
    size_t len = strcspn(form, "\n");
    fprintf(f, "%s rigor %s%s%.*s\n", first ? "usage:" : "      ", cmd->name, len ? " " : "",
            (int)len, form);
    form += len + (form[len] == '\n');
  }
}

/* "  -o, --output OUT" as help shows it. */
static int option_label(const rigor_option_t *o, char *buf, size_t cap) {
  char letter[8] = "    ";
  if (o->letter) snprintf(letter, sizeof letter, "-%c, ", o->letter);
  return snprintf(buf, cap, "  %s--%s%s%s", letter, o->name, o->arg ? " " : "",
                  o->arg ? o->arg : "");
}

static void print_help(const rigor_command_t *cmd) {
  print_usage_lines(stdout, cmd);
  if (cmd->about)
    printf("\n%s%s", cmd->about, cmd->about[strlen(cmd->about) - 1] == '\n' ? "" : "\n");
  int width = 0;
  char label[128];
  for (const rigor_option_t *o = cmd->options; o && o->name; o++) {
    int len = option_label(o, label, sizeof label);
    if (len > width) width = len;
  }
  if (option_label(&help_option, label, sizeof label) > width) width = (int)strlen(label);
  printf("\noptions:\n");
  for (const rigor_option_t *o = cmd->options; o && o->name; o++) {
    option_label(o, label, sizeof label);
    printf("%-*s  %s\n", width, label, o->help);
  }
  option_label(&help_option, label, sizeof label);
  printf("%-*s  %s\n", width, label, help_option.help);
}

static void vusage_error(const rigor_command_t *cmd, const char *fmt, va_list ap) {
  fprintf(stderr, "rigor %s: ", cmd->name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  print_usage_lines(stderr, cmd);
  fprintf(stderr, "See 'rigor %s --help'.\n", cmd->name);
}

int rigor_usage_error(const rigor_command_t *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vusage_error(cmd, fmt, ap);
  va_end(ap);
  return RIGOR_EXIT_USAGE;
}

/* The option `arg` names ("--output", "--output=x", "-o"); *inline_value points past '='. */
static const rigor_option_t *find_option(const rigor_command_t *cmd, const char *arg,
                                         const char **inline_value) {
  *inline_value = NULL;
  if (arg[1] != '-') {
    if (!arg[1] || arg[2]) return NULL;
    if (arg[1] == help_option.letter) return &help_option;
    for (const rigor_option_t *o = cmd->options; o && o->name; o++)
      if (o->letter && o->letter == arg[1]) return o;
    return NULL;
  }
  const char *name = arg + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  if (eq) *inline_value = eq + 1;
  if (len == strlen(help_option.name) && !strncmp(name, help_option.name, len)) return &help_option;
  for (const rigor_option_t *o = cmd->options; o && o->name; o++)
    if (strlen(o->name) == len && !strncmp(o->name, name, len)) return o;
  return NULL;
}

static int unknown_option(const rigor_command_t *cmd, const char *arg) {
  char given[128];
  snprintf(given, sizeof given, "%.*s", (int)strcspn(arg, "="), arg);
  size_t n = 0;
  for (const rigor_option_t *o = cmd->options; o && o->name; o++)
    n += 1 + (o->letter != 0);
  char(*names)[64] = calloc(n + 2, sizeof *names);
  const char **list = calloc(n + 2, sizeof *list);
  size_t k = 0;
  if (list) list[k++] = "--help";
  for (const rigor_option_t *o = cmd->options; names && list && o && o->name; o++) {
    snprintf(names[k], sizeof names[k], "--%s", o->name);
    list[k] = names[k], k++;
    if (o->letter) {
      snprintf(names[k], sizeof names[k], "-%c", o->letter);
      list[k] = names[k], k++;
    }
  }
  const char *near = list ? rigor_closest(given, list, k) : NULL;
  if (near)
    rigor_usage_error(cmd, "unknown option '%s' (did you mean '%s'?)", given, near);
  else
    rigor_usage_error(cmd, "unknown option '%s'", given);
  free(names);
  free(list);
  return RIGOR_EXIT_USAGE;
}

int rigor_args_parse(const rigor_command_t *cmd, int argc, char **argv,
                     rigor_strings_t *positional) {
  bool options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    bool is_option = !options_done && arg[0] == '-' && arg[1];
    if (is_option && !strcmp(arg, "--")) {
      options_done = true;
      continue;
    }
    if (!is_option) {
      if (!positional) return rigor_usage_error(cmd, "takes no arguments ('%s')", arg);
      if (rigor_strings_add(positional, arg)) return rigor_usage_error(cmd, "out of memory");
      continue;
    }
    const char *value = NULL;
    const rigor_option_t *o = find_option(cmd, arg, &value);
    if (!o) return unknown_option(cmd, arg);
    char shown[80];
    snprintf(shown, sizeof shown, "%.*s", (int)strcspn(arg, "="), arg);
    if (o == &help_option) {
      if (value) return rigor_usage_error(cmd, "option '%s' takes no value", shown);
      print_help(cmd);
      return RIGOR_EXIT_OK;
    }
    if (!o->arg) {
      if (value) return rigor_usage_error(cmd, "option '%s' takes no value", shown);
      *o->flag = true;
      continue;
    }
    if (!value) {
      if (i + 1 >= argc)
        return rigor_usage_error(cmd, "option '%s' needs a value: %s %s", shown, shown, o->arg);
      value = argv[++i];
    }
    if (o->value)
      *o->value = value;
    else if (rigor_strings_add(o->list, value))
      return rigor_usage_error(cmd, "out of memory");
  }
  return -1;
}

int rigor_args_choice(const rigor_command_t *cmd, const char *option, const char *value,
                      const char *const *choices) {
  size_t n = 0;
  for (; choices[n]; n++)
    if (!strcmp(choices[n], value)) return (int)n;
  char list[512] = "";
  for (size_t i = 0; i < n; i++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%s",
             i == 0       ? ""
             : i + 1 == n ? " or "
                          : ", ",
             choices[i]);
  }
  const char *near = rigor_closest(value, choices, n);
  if (near)
    rigor_usage_error(cmd, "%s takes %s, not '%s' (did you mean '%s'?)", option, list, value, near);
  else
    rigor_usage_error(cmd, "%s takes %s, not '%s'", option, list, value);
  return -1;
}

const rigor_writer_t *rigor_args_writer(const rigor_command_t *cmd, const char *value) {
  const char *names[16];
  size_t n = 0;
  for (const rigor_writer_t *w = rigor_writers; w->name && n + 1 < sizeof names / sizeof *names;
       w++)
    names[n++] = w->name;
  names[n] = NULL;
  int k = rigor_args_choice(cmd, "--format", value ? value : "text", names);
  return k < 0 ? NULL : &rigor_writers[k];
}

FILE *rigor_output_open(const rigor_command_t *cmd, const char *path) {
  if (!path || !strcmp(path, "-")) return stdout;
  FILE *f = fopen(path, "w");
  if (!f) fprintf(stderr, "rigor %s: cannot write %s: %s\n", cmd->name, path, strerror(errno));
  return f;
}

int rigor_output_close(const rigor_command_t *cmd, const char *path, FILE *out) {
  int bad = ferror(out);
  if (out == stdout)
    bad = fflush(out) != 0 || bad;
  else
    bad = fclose(out) != 0 || bad;
  if (bad)
    fprintf(stderr, "rigor %s: could not write %s\n", cmd->name,
            out == stdout ? "to standard output" : path);
  return bad ? -1 : 0;
}
