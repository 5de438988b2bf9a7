#include "exec_points.h"

#include <string.h>

int exec_point_prepare(const exec_params_t *p, const char *tmp, exec_point_t *out, char *err,
                       size_t errlen, const char **param) {
  memset(out, 0, sizeof *out);
  int rc = exec_spec_parse(p, &out->spec, err, errlen, param);
  if (rc) return rc;
  exec_vars_t vars = exec_spec_vars(&out->spec, tmp);
  if ((rc = exec_env_build(&out->spec, &vars, &out->env, err, errlen)) ||
      (rc = exec_cmd_build(&out->spec, &out->spec.command, &vars, &out->env, &out->cmd, err,
                           errlen))) {
    *param = "command";
    exec_point_release(out);
    return rc;
  }
  for (int h = 0; h < EXEC_N_HOOKS; h++) {
    if (out->spec.hooks[h].n == 0) continue;
    if ((rc = exec_cmd_build(&out->spec, &out->spec.hooks[h], &vars, &out->env, &out->hooks[h], err,
                             errlen))) {
      *param = exec_hook_names[h];
      exec_point_release(out);
      return rc;
    }
  }
  return 0;
}

void exec_point_release(exec_point_t *pt) {
  for (int h = 0; h < EXEC_N_HOOKS; h++)
    exec_cmd_free(&pt->hooks[h]);
  exec_cmd_free(&pt->cmd);
  exec_env_free(&pt->env);
  exec_spec_free(&pt->spec);
}
