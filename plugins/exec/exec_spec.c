#include "exec_spec.h"

#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const exec_hook_names[EXEC_N_HOOKS] = {"setup", "prepare", "verify", "cleanup"};

/* The name handed back as *param; static storage, since the caller copies it at once. */
static char fault[96];

static int fail(const char **param, const char *name, const char *member) {
  if (member)
    snprintf(fault, sizeof fault, "%s.%s", name, member);
  else
    snprintf(fault, sizeof fault, "%s", name);
  *param = fault;
  return RIGOR_ECONFIG;
}

static json_t *load(const char *text) {
  return json_loads(text && *text ? text : "null", JSON_DECODE_ANY, NULL);
}

static const char *kind(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    return "a mapping";
  case JSON_ARRAY:
    return "a list";
  case JSON_STRING:
    return "a string";
  case JSON_NULL:
    return "null";
  default:
    return "a number";
  }
}

static int argv_parse(const json_t *v, bool shell, bool required, const char *name,
                      exec_argv_t *out, char *err, size_t errlen, const char **param) {
  memset(out, 0, sizeof *out);
  if (json_is_null(v)) {
    if (!required) return 0;
    snprintf(err, errlen,
             "is required: the program and its arguments as a list, e.g. "
             "[gzip, -9, file]");
    return fail(param, name, NULL);
  }
  if (json_is_string(v) && !shell) {
    snprintf(err, errlen,
             "'%s' is one string, which runs only with shell: true; write the argv as a list "
             "([prog, arg, ...]) or set shell: true",
             json_string_value(v));
    return fail(param, name, NULL);
  }
  if (!json_is_string(v) && !json_is_array(v)) {
    snprintf(err, errlen, "must be a list of strings, not %s", kind(v));
    return fail(param, name, NULL);
  }
  size_t n = json_is_array(v) ? json_array_size(v) : 1;
  if (n == 0) {
    snprintf(err, errlen, "the argv list is empty: name a program to run");
    return fail(param, name, NULL);
  }
  if (shell && n != 1) {
    snprintf(err, errlen,
             "with shell: true it is one command line for /bin/sh -c, not a list of %zu words", n);
    return fail(param, name, NULL);
  }
  out->items = calloc(n + 1, sizeof *out->items);
  if (!out->items) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    const json_t *item = json_is_array(v) ? json_array_get(v, i) : v;
    if (!json_is_string(item)) {
      snprintf(err, errlen, "item %zu is %s; every argv item is a string", i + 1, kind(item));
      return fail(param, name, NULL);
    }
    if (i == 0 && json_string_length(item) == 0) {
      snprintf(err, errlen, "the program (item 1) is empty");
      return fail(param, name, NULL);
    }
    if (!(out->items[out->n++] = strdup(json_string_value(item))))
      return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  }
  return 0;
}

static void argv_free(exec_argv_t *a) {
  for (size_t i = 0; i < a->n; i++)
    free(a->items[i]);
  free(a->items);
  memset(a, 0, sizeof *a);
}

static bool env_name_ok(const char *name) {
  return name[0] && !strchr(name, '=');
}

/* name -> string (or null where nulls are allowed) into two parallel arrays. */
static int map_parse(const json_t *v, const char *param_name, bool nulls, char ***names,
                     char ***values, size_t *n, char *err, size_t errlen, const char **param) {
  *names = *values = NULL;
  *n = 0;
  if (json_is_null(v)) return 0;
  if (!json_is_object(v)) {
    snprintf(err, errlen, "must be a mapping {NAME: value}, not %s", kind(v));
    return fail(param, param_name, NULL);
  }
  size_t count = json_object_size(v);
  *names = calloc(count + 1, sizeof **names);
  *values = calloc(count + 1, sizeof **values);
  if (!*names || !*values) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  const char *key;
  json_t *item;
  json_object_foreach((json_t *)v, key, item) {
    bool is_env = strcmp(param_name, "env") == 0;
    if (is_env ? !env_name_ok(key) : !exec_var_name_ok(key, strlen(key))) {
      snprintf(err, errlen,
               is_env ? "'%s' is not a variable name (non-empty, without '=')"
                      : "'%s' is not a variable name (a letter or '_', then letters, digits or "
                        "'_')",
               key);
      return fail(param, param_name, key);
    }
    if (!is_env && strcmp(key, EXEC_VAR_TMP) == 0) {
      snprintf(err, errlen, "{%s} is the run's scratch folder; choose another name", EXEC_VAR_TMP);
      return fail(param, param_name, key);
    }
    if (!json_is_string(item) && !(nulls && json_is_null(item))) {
      snprintf(err, errlen, "must be a string%s, not %s", nulls ? " or null" : "", kind(item));
      return fail(param, param_name, key);
    }
    size_t k = (*n)++;
    (*names)[k] = strdup(key);
    (*values)[k] = json_is_string(item) ? strdup(json_string_value(item)) : NULL;
    if (!(*names)[k] || (json_is_string(item) && !(*values)[k]))
      return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  }
  return 0;
}

static void map_free(char **names, char **values, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(names[i]);
    free(values[i]);
  }
  free(names);
  free(values);
}

/* Compiles once to see that it does; group counts from regex_t. */
static int regex_check(const char *re, bool need_group, char *err, size_t errlen) {
  regex_t compiled;
  int rc = regcomp(&compiled, re, REG_EXTENDED | REG_NEWLINE | (need_group ? 0 : REG_NOSUB));
  if (rc != 0) {
    char why[256];
    regerror(rc, &compiled, why, sizeof why);
    snprintf(err, errlen, "/%s/ does not compile: %s", re, why);
    return RIGOR_ECONFIG;
  }
  size_t groups = compiled.re_nsub;
  regfree(&compiled);
  if (need_group && groups < 1) {
    snprintf(err, errlen, "/%s/ has no group: put the number in ( )", re);
    return RIGOR_ECONFIG;
  }
  return 0;
}

static bool metric_name_ok(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n >= sizeof((exec_metric_spec_t *)0)->name) return false;
  for (const char *c = name; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          *c == '_' || *c == '.' || *c == '-'))
      return false;
  return true;
}

static int metric_parse(const char *name, const json_t *v, exec_metric_spec_t *m, char *err,
                        size_t errlen, const char **param) {
  static const char *const keys[] = {"regex", "better", "unit", "from", NULL};
  if (!metric_name_ok(name) || strcmp(name, EXEC_METRIC_SPAWN) == 0) {
    snprintf(err, errlen,
             strcmp(name, EXEC_METRIC_SPAWN) == 0
                 ? "'%s' is the plugin's own metric; choose another name"
                 : "'%s' is not a metric name (up to 47 letters, digits, '_', '.' or '-')",
             name);
    return fail(param, "metrics", name);
  }
  if (!json_is_object(v)) {
    snprintf(err, errlen,
             "must be a mapping {regex: '...', better: lower|higher, unit: ..., "
             "from: stdout|stderr}, not %s",
             kind(v));
    return fail(param, "metrics", name);
  }
  const char *key;
  json_t *item;
  json_object_foreach((json_t *)v, key, item) {
    bool known = false;
    for (size_t k = 0; keys[k] && !known; k++)
      known = strcmp(keys[k], key) == 0;
    if (!known) {
      snprintf(err, errlen, "unknown key '%s' (known: regex, better, unit, from)", key);
      return fail(param, "metrics", name);
    }
    if (!json_is_string(item)) {
      snprintf(err, errlen, "'%s' must be a string, not %s", key, kind(item));
      return fail(param, "metrics", name);
    }
  }
  const char *regex = json_string_value(json_object_get(v, "regex"));
  const char *better = json_string_value(json_object_get(v, "better"));
  const char *unit = json_string_value(json_object_get(v, "unit"));
  const char *from = json_string_value(json_object_get(v, "from"));
  if (!regex || !better) {
    snprintf(err, errlen, "needs 'regex' (with one group) and 'better' (lower or higher)");
    return fail(param, "metrics", name);
  }
  if (strcmp(better, "lower") && strcmp(better, "higher")) {
    snprintf(err, errlen, "better: '%s' is not lower or higher", better);
    return fail(param, "metrics", name);
  }
  if (from && strcmp(from, "stdout") && strcmp(from, "stderr")) {
    snprintf(err, errlen, "from: '%s' is not stdout or stderr", from);
    return fail(param, "metrics", name);
  }
  if (unit && strlen(unit) >= sizeof m->unit) {
    snprintf(err, errlen, "unit '%s' is longer than %zu characters", unit, sizeof m->unit - 1);
    return fail(param, "metrics", name);
  }
  if (regex_check(regex, true, err, errlen)) return fail(param, "metrics", name);
  snprintf(m->name, sizeof m->name, "%s", name);
  snprintf(m->unit, sizeof m->unit, "%s", unit ? unit : "");
  m->better = strcmp(better, "higher") == 0 ? RIGOR_HIGHER_IS_BETTER : RIGOR_LOWER_IS_BETTER;
  m->from_stderr = from && strcmp(from, "stderr") == 0;
  m->regex = strdup(regex);
  return m->regex ? 0 : (snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM);
}

static int metrics_parse(const json_t *v, exec_spec_t *s, char *err, size_t errlen,
                         const char **param) {
  if (json_is_null(v)) return 0;
  if (!json_is_object(v)) {
    snprintf(err, errlen, "must be a mapping {name: {regex, better, unit, from}}, not %s", kind(v));
    return fail(param, "metrics", NULL);
  }
  s->metrics = calloc(json_object_size(v) + 1, sizeof *s->metrics);
  if (!s->metrics) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  const char *key;
  json_t *item;
  json_object_foreach((json_t *)v, key, item) {
    int rc = metric_parse(key, item, &s->metrics[s->n_metrics], err, errlen, param);
    if (rc) return rc;
    s->n_metrics++;
  }
  return 0;
}

/* Every placeholder of one template must name a variable. */
static int placeholders(const char *tmpl, const exec_vars_t *vars, const char *name, char *err,
                        size_t errlen, const char **param) {
  char *text = exec_expand(tmpl, vars, err, errlen);
  if (text) return free(text), 0;
  return fail(param, name, NULL);
}

int exec_spec_check_placeholders(const exec_spec_t *s, char *err, size_t errlen,
                                 const char **param) {
  exec_vars_t vars = exec_spec_vars(s, NULL);
  int rc = 0;
  for (size_t i = 0; i < s->command.n && !rc; i++)
    rc = placeholders(s->command.items[i], &vars, "command", err, errlen, param);
  for (int h = 0; h < EXEC_N_HOOKS && !rc; h++)
    for (size_t i = 0; i < s->hooks[h].n && !rc; i++)
      rc = placeholders(s->hooks[h].items[i], &vars, exec_hook_names[h], err, errlen, param);
  if (!rc) rc = placeholders(s->p->cwd ? s->p->cwd : "", &vars, "cwd", err, errlen, param);
  if (!rc)
    rc = placeholders(s->p->stdin_file ? s->p->stdin_file : "", &vars, "stdin", err, errlen, param);
  for (size_t i = 0; i < s->n_env && !rc; i++)
    if (s->env_values[i] && (rc = placeholders(s->env_values[i], &vars, "env", err, errlen, param)))
      fail(param, "env", s->env_names[i]);
  return rc;
}

int exec_spec_parse(const exec_params_t *p, exec_spec_t *out, char *err, size_t errlen,
                    const char **param) {
  memset(out, 0, sizeof *out);
  out->p = p;
  *param = NULL;
  const char *texts[] = {p->command, p->setup, p->prepare, p->verify,
                         p->cleanup, p->env,   p->vars,    p->metrics};
  json_t *v[8] = {NULL};
  int rc = 0;
  for (size_t i = 0; i < 8 && !rc; i++)
    if (!(v[i] = load(texts[i]))) {
      snprintf(err, errlen, "out of memory");
      rc = RIGOR_ENOMEM;
    }
  if (!rc) rc = argv_parse(v[0], p->shell, true, "command", &out->command, err, errlen, param);
  for (int h = 0; h < EXEC_N_HOOKS && !rc; h++)
    rc = argv_parse(v[1 + h], p->shell, false, exec_hook_names[h], &out->hooks[h], err, errlen,
                    param);
  if (!rc)
    rc = map_parse(v[5], "env", true, &out->env_names, &out->env_values, &out->n_env, err, errlen,
                   param);
  if (!rc)
    rc = map_parse(v[6], "vars", false, &out->var_names, &out->var_values, &out->n_vars, err,
                   errlen, param);
  if (!rc) rc = metrics_parse(v[7], out, err, errlen, param);
  if (!rc && p->expect_stdout && *p->expect_stdout &&
      regex_check(p->expect_stdout, false, err, errlen))
    rc = fail(param, "expect_stdout", NULL);
  for (size_t i = 0; i < 8; i++)
    json_decref(v[i]);
  if (rc) exec_spec_free(out);
  return rc;
}

int exec_spec_parse_metrics(const exec_params_t *p, exec_spec_t *out, char *err, size_t errlen,
                            const char **param) {
  memset(out, 0, sizeof *out);
  out->p = p;
  *param = NULL;
  json_t *v = load(p->metrics);
  if (!v) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  int rc = metrics_parse(v, out, err, errlen, param);
  json_decref(v);
  if (rc) exec_spec_free(out);
  return rc;
}

void exec_spec_free(exec_spec_t *s) {
  argv_free(&s->command);
  for (int h = 0; h < EXEC_N_HOOKS; h++)
    argv_free(&s->hooks[h]);
  map_free(s->env_names, s->env_values, s->n_env);
  map_free(s->var_names, s->var_values, s->n_vars);
  for (size_t i = 0; i < s->n_metrics; i++)
    free(s->metrics[i].regex);
  free(s->metrics);
  memset(s, 0, sizeof *s);
}

exec_vars_t exec_spec_vars(const exec_spec_t *s, const char *tmp) {
  return (exec_vars_t){(const char *const *)s->var_names, (const char *const *)s->var_values,
                       s->n_vars, tmp};
}

bool exec_spec_reads(const exec_spec_t *s, bool from_stderr) {
  for (size_t i = 0; i < s->n_metrics; i++)
    if (s->metrics[i].from_stderr == from_stderr) return true;
  return !from_stderr && s->p->expect_stdout && *s->p->expect_stdout;
}
