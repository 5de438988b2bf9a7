#include "exec_command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static bool same_name(const char *entry, const char *name) {
  size_t n = strlen(name);
  return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

int exec_env_build(const exec_spec_t *s, const exec_vars_t *vars, exec_env_t *out, char *err,
                   size_t errlen) {
  memset(out, 0, sizeof *out);
  size_t n = 0;
  while (environ[n])
    n++;
  out->envp = calloc(n + s->n_env + 1, sizeof *out->envp);
  out->owned = calloc(s->n_env + 1, sizeof *out->owned);
  if (!out->envp || !out->owned) {
    exec_env_free(out);
    return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    bool replaced = false;
    for (size_t e = 0; e < s->n_env && !replaced; e++)
      replaced = same_name(environ[i], s->env_names[e]);
    if (!replaced) out->envp[k++] = environ[i];
  }
  for (size_t e = 0; e < s->n_env; e++) {
    if (!s->env_values[e]) continue;
    char *value = exec_expand(s->env_values[e], vars, err, errlen);
    size_t len = value ? strlen(s->env_names[e]) + strlen(value) + 2 : 0;
    char *entry = value ? malloc(len) : NULL;
    if (entry) snprintf(entry, len, "%s=%s", s->env_names[e], value);
    free(value);
    if (!entry) {
      exec_env_free(out);
      return RIGOR_ECONFIG;
    }
    out->owned[out->n_owned++] = entry;
    out->envp[k++] = entry;
  }
  return 0;
}

void exec_env_free(exec_env_t *e) {
  for (size_t i = 0; i < e->n_owned; i++)
    free(e->owned[i]);
  free(e->owned);
  free(e->envp);
  memset(e, 0, sizeof *e);
}

static char *expand_or_null(const char *tmpl, const exec_vars_t *vars, char *err, size_t errlen,
                            int *rc) {
  if (!tmpl || !*tmpl) return NULL;
  char *text = exec_expand(tmpl, vars, err, errlen);
  if (!text) *rc = RIGOR_ECONFIG;
  return text;
}

int exec_cmd_build(const exec_spec_t *s, const exec_argv_t *tmpl, const exec_vars_t *vars,
                   const exec_env_t *env, exec_cmd_t *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  bool shell = s->p->shell;
  size_t n = shell ? 3 : tmpl->n;
  out->argv = calloc(n + 1, sizeof *out->argv);
  if (!out->argv) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  int rc = 0;
  if (shell) {
    out->argv[0] = strdup(EXEC_SHELL);
    out->argv[1] = strdup("-c");
    out->argv[2] = exec_expand(tmpl->items[0], vars, err, errlen);
  } else {
    for (size_t i = 0; i < n; i++)
      out->argv[i] = exec_expand(tmpl->items[i], vars, err, errlen);
  }
  for (size_t i = 0; i < n && !rc; i++)
    if (!out->argv[i]) rc = RIGOR_ECONFIG;
  if (!rc) out->cwd = expand_or_null(s->p->cwd, vars, err, errlen, &rc);
  if (!rc) out->stdin_path = expand_or_null(s->p->stdin_file, vars, err, errlen, &rc);
  out->envp = env->envp;
  if (rc) {
    for (size_t i = 0; i < n; i++)
      free(out->argv[i]);
    free(out->argv);
    free(out->cwd);
    free(out->stdin_path);
    memset(out, 0, sizeof *out);
  }
  return rc;
}

static const char *env_get(char *const *envp, const char *name) {
  for (size_t i = 0; envp && envp[i]; i++)
    if (same_name(envp[i], name)) return envp[i] + strlen(name) + 1;
  return NULL;
}

static bool runnable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int exec_cmd_resolve(exec_cmd_t *c, char *err, size_t errlen) {
  const char *prog = c->argv[0];
  free(c->path);
  c->path = NULL;
  if (strchr(prog, '/')) {
    char joined[8192];
    const char *probe = prog;
    if (prog[0] != '/' && c->cwd) {
      snprintf(joined, sizeof joined, "%s/%s", c->cwd, prog);
      probe = joined;
    }
    if (!runnable(probe)) {
      snprintf(err, errlen, "program %s is not there or not executable%s%s", prog,
               c->cwd ? " in " : "", c->cwd ? c->cwd : "");
      return RIGOR_EUNAVAILABLE;
    }
    c->path = strdup(prog);
    return c->path ? 0 : RIGOR_ENOMEM;
  }
  const char *path = env_get(c->envp, "PATH");
  if (!path) path = "/usr/local/bin:/usr/bin:/bin";
  for (const char *dir = path;;) {
    size_t len = strcspn(dir, ":");
    char cand[8192];
    snprintf(cand, sizeof cand, "%.*s%s%s", (int)len, len ? dir : ".", "/", prog);
    if (runnable(cand)) {
      c->path = strdup(cand);
      return c->path ? 0 : RIGOR_ENOMEM;
    }
    if (!dir[len]) break;
    dir += len + 1;
  }
  snprintf(err, errlen, "program '%s' is not on PATH (%.200s)", prog, path);
  return RIGOR_EUNAVAILABLE;
}

void exec_cmd_free(exec_cmd_t *c) {
  for (size_t i = 0; c->argv && c->argv[i]; i++)
    free(c->argv[i]);
  free(c->argv);
  free(c->path);
  free(c->cwd);
  free(c->stdin_path);
  memset(c, 0, sizeof *c);
}

static size_t quote_control(char *out, size_t cap, const char *word) {
  size_t used = (size_t)snprintf(out, cap, "$'");
  for (const unsigned char *p = (const unsigned char *)word; *p && used < cap; p++) {
    const char *named = *p == '\n'   ? "\\n"
                        : *p == '\r' ? "\\r"
                        : *p == '\t' ? "\\t"
                        : *p == '\\' ? "\\\\"
                        : *p == '\'' ? "\\'"
                                     : NULL;
    if (named)
      used += (size_t)snprintf(out + used, cap - used, "%s", named);
    else if (*p < 0x20 || *p == 0x7f)
      used += (size_t)snprintf(out + used, cap - used, "\\x%02x", *p);
    else
      used += (size_t)snprintf(out + used, cap - used, "%c", *p);
  }
  if (used < cap) used += (size_t)snprintf(out + used, cap - used, "'");
  return used;
}

static size_t quote(char *out, size_t cap, const char *word) {
  bool plain = *word != '\0';
  for (const char *p = word; *p && plain; p++)
    plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-{}",
                   *p) != NULL;
  if (plain) return (size_t)snprintf(out, cap, "%s", word);
  bool control = false;
  for (const unsigned char *p = (const unsigned char *)word; *p && !control; p++)
    control = *p < 0x20 || *p == 0x7f;
  /* A control character (a newline, an escape) is written as the shell's $'...' spells it, so
   * that a described command stays on its line and shows what it holds. */
  if (control) return quote_control(out, cap, word);
  size_t used = (size_t)snprintf(out, cap, "'");
  for (const char *p = word; *p && used < cap; p++)
    used += (size_t)(*p == '\'' ? snprintf(out + used, cap - used, "'\\''")
                                : snprintf(out + used, cap - used, "%c", *p));
  if (used < cap) used += (size_t)snprintf(out + used, cap - used, "'");
  return used;
}

void exec_cmd_describe(const exec_cmd_t *c, const exec_spec_t *s, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
#define ROOM (used < cap ? cap - used : 0)
#define AT   (out + (used < cap ? used : cap - 1))
  if (c->cwd) {
    used += (size_t)snprintf(AT, ROOM, "cd ");
    used += quote(AT, ROOM, c->cwd);
    used += (size_t)snprintf(AT, ROOM, " && ");
  }
  if (s->n_env) used += (size_t)snprintf(AT, ROOM, "env ");
  for (size_t e = 0; e < s->n_env; e++) {
    used += (size_t)snprintf(AT, ROOM, s->env_values[e] ? "%s=" : "-u %s ", s->env_names[e]);
    if (s->env_values[e]) {
      const char *value = env_get(c->envp, s->env_names[e]);
      used += quote(AT, ROOM, value ? value : "");
      used += (size_t)snprintf(AT, ROOM, " ");
    }
  }
  for (size_t i = 0; c->argv[i]; i++) {
    used += quote(AT, ROOM, c->argv[i]);
    if (c->argv[i + 1]) used += (size_t)snprintf(AT, ROOM, " ");
  }
  if (c->stdin_path) {
    used += (size_t)snprintf(AT, ROOM, " < ");
    used += quote(AT, ROOM, c->stdin_path);
  }
#undef ROOM
#undef AT
}
