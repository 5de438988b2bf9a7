/* The exec plugin's params struct and schema table. */
#ifndef EXEC_PARAMS_H
#define EXEC_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "rigor/plugin.h"

typedef struct exec_params {
  const char *command; /* JSON: argv list, or one string with shell */
  bool shell;
  const char *cwd;
  const char *env;  /* JSON object: name -> string, or null to unset */
  const char *vars; /* JSON object: name -> string, for {name} placeholders */
  const char *stdin_file;
  int64_t expect_exit;
  const char *expect_stdout;
  const char *metrics; /* JSON object: name -> {regex, better, unit, from} */
  double timeout;
  uint64_t capture;
  const char *setup;   /* JSON argv (or string with shell), once per run in init */
  const char *prepare; /* before each measured window, in prime */
  const char *verify;  /* after each window, in validate */
  const char *cleanup; /* once per run, in fini */
} exec_params_t;

#define EXEC_N_PARAMS 15
extern const rigor_param_t exec_params_table[EXEC_N_PARAMS];

#endif
