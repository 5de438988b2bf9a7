/* A command ready to execute: placeholders filled, the program found, the environment built.
 * Everything here is prepared before a window, so the measured execution only forks and waits. */
#ifndef EXEC_COMMAND_H
#define EXEC_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "exec_spec.h"

#define EXEC_SHELL "/bin/sh"

typedef struct exec_env {
  char **envp;  /* NULL-terminated: the run's environment with `env` applied */
  char **owned; /* the "NAME=value" strings this plugin allocated */
  size_t n_owned;
} exec_env_t;

typedef struct exec_cmd {
  char **argv;      /* NULL-terminated; argv[0] as written */
  char *path;       /* what execve runs: argv[0] found on PATH, or as written with a '/' */
  char *cwd;        /* NULL: rigor's own */
  char *stdin_path; /* NULL: /dev/null */
  char *const *envp;
} exec_cmd_t;

int exec_env_build(const exec_spec_t *s, const exec_vars_t *vars, exec_env_t *out, char *err,
                   size_t errlen);
void exec_env_free(exec_env_t *e);

/* Fills an argv template (with shell: /bin/sh -c SCRIPT), cwd and stdin from vars. */
int exec_cmd_build(const exec_spec_t *s, const exec_argv_t *tmpl, const exec_vars_t *vars,
                   const exec_env_t *env, exec_cmd_t *out, char *err, size_t errlen);
/* Finds the program as execve will (PATH from the command's environment, relative paths from its
 * cwd): RIGOR_EUNAVAILABLE when it is not there or not executable. */
int exec_cmd_resolve(exec_cmd_t *c, char *err, size_t errlen);
void exec_cmd_free(exec_cmd_t *c);
/* The command as one shell-quoted line: "cd DIR && NAME=value prog 'an arg' < file". */
void exec_cmd_describe(const exec_cmd_t *c, const exec_spec_t *s, char *out, size_t cap);

#endif
