/* One sweep point made ready: its params read, its variables filled into the command and the
 * setup, prepare, verify and cleanup commands, its environment built. */
#ifndef EXEC_POINTS_H
#define EXEC_POINTS_H

#include "exec_command.h"
#include "exec_spec.h"

typedef struct exec_point {
  exec_spec_t spec;
  exec_env_t env;
  exec_cmd_t cmd;
  exec_cmd_t hooks[EXEC_N_HOOKS]; /* argv NULL where the hook is not set */
} exec_point_t;

/* tmp is the run's scratch folder; NULL keeps {tmp} as written (commands listed before a run).
 * On failure err and *param say why, and nothing is left allocated. */
int exec_point_prepare(const exec_params_t *p, const char *tmp, exec_point_t *out, char *err,
                       size_t errlen, const char **param);
void exec_point_release(exec_point_t *pt);

#endif
