/* The params as the plugin reads them: the JSON texts parsed and checked, before any variable is
 * filled in. check_params, commands, declare_metrics and init all start here. */
#ifndef EXEC_SPEC_H
#define EXEC_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "exec_params.h"
#include "exec_template.h"
#include "rigor/plugin.h"

enum { EXEC_SETUP = 0, EXEC_PREPARE, EXEC_VERIFY, EXEC_CLEANUP, EXEC_N_HOOKS };
extern const char *const exec_hook_names[EXEC_N_HOOKS];

#define EXEC_METRIC_SPAWN "spawn_s"

/* An argv of templates; n == 0 when the param is null. With shell, one item: the script. */
typedef struct exec_argv {
  char **items;
  size_t n;
} exec_argv_t;

typedef struct exec_metric_spec {
  char name[48];
  char unit[16];
  rigor_better_t better;
  bool from_stderr;
  char *regex;
} exec_metric_spec_t;

typedef struct exec_spec {
  const exec_params_t *p;
  exec_argv_t command;
  exec_argv_t hooks[EXEC_N_HOOKS];
  char **env_names, **env_values; /* a NULL value unsets the name */
  size_t n_env;
  char **var_names, **var_values;
  size_t n_vars;
  exec_metric_spec_t *metrics;
  size_t n_metrics;
} exec_spec_t;

/* Parses and checks the shapes of command, env, vars, metrics and the hooks, and compiles every
 * regex once. On failure err says what is wrong and *param names the param (or "vars.NAME",
 * "env.NAME", "metrics.NAME"). */
int exec_spec_parse(const exec_params_t *p, exec_spec_t *out, char *err, size_t errlen,
                    const char **param);
/* Only `metrics`: what declare_metrics needs from params that may lack the sweep's values. */
int exec_spec_parse_metrics(const exec_params_t *p, exec_spec_t *out, char *err, size_t errlen,
                            const char **param);
/* Every placeholder of a point's params (base and sweep values together) names a variable. */
int exec_spec_check_placeholders(const exec_spec_t *s, char *err, size_t errlen,
                                 const char **param);
void exec_spec_free(exec_spec_t *s);

exec_vars_t exec_spec_vars(const exec_spec_t *s, const char *tmp);
bool exec_spec_reads(const exec_spec_t *s, bool from_stderr); /* a metric or check reads it */

#endif
