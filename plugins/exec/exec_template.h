/* Placeholders: {name} in argv, cwd, stdin and env values is replaced by the variable `name`;
 * {{ and }} are literal braces, and any other brace is kept as written. */
#ifndef EXEC_TEMPLATE_H
#define EXEC_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#define EXEC_VAR_TMP "tmp" /* the run's scratch folder, a variable no config may set */

typedef struct exec_vars {
  const char *const *names;
  const char *const *values;
  size_t n;
  const char *tmp; /* NULL: {tmp} is kept as written (for listing commands before a run) */
} exec_vars_t;

/* Whether `name` may be a variable: a letter or '_', then letters, digits or '_'. */
bool exec_var_name_ok(const char *name, size_t len);
/* The expanded text (malloc'd), or NULL with err naming the placeholder that has no variable. */
char *exec_expand(const char *tmpl, const exec_vars_t *vars, char *err, size_t errlen);

#endif
