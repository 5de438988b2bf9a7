#include "exec_template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool exec_var_name_ok(const char *name, size_t len) {
  if (len == 0) return false;
  for (size_t i = 0; i < len; i++) {
    char c = name[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

static const char *lookup(const exec_vars_t *v, const char *name, size_t len, bool *keep) {
  *keep = false;
  if (len == strlen(EXEC_VAR_TMP) && strncmp(name, EXEC_VAR_TMP, len) == 0) {
    *keep = v->tmp == NULL;
    return v->tmp ? v->tmp : "";
  }
  for (size_t i = 0; i < v->n; i++)
    if (strlen(v->names[i]) == len && strncmp(v->names[i], name, len) == 0) return v->values[i];
  return NULL;
}

static void known_names(const exec_vars_t *v, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < v->n && used < cap; i++)
    used += (size_t)snprintf(out + used, cap - used, "%s, ", v->names[i]);
  if (used < cap) snprintf(out + used, cap - used, "%s", EXEC_VAR_TMP);
}

typedef struct growing {
  char *text;
  size_t len, cap;
} growing_t;

static bool put(growing_t *g, const char *s, size_t n) {
  if (g->len + n + 1 > g->cap) {
    size_t cap = (g->len + n + 1) * 2;
    char *grown = realloc(g->text, cap);
    if (!grown) return false;
    g->text = grown;
    g->cap = cap;
  }
  memcpy(g->text + g->len, s, n);
  g->len += n;
  g->text[g->len] = '\0';
  return true;
}

char *exec_expand(const char *tmpl, const exec_vars_t *vars, char *err, size_t errlen) {
  growing_t g = {0};
  bool ok = put(&g, "", 0);
  for (const char *p = tmpl; ok && *p;) {
    if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
      ok = put(&g, p, 1);
      p += 2;
      continue;
    }
    const char *close = p[0] == '{' ? strchr(p + 1, '}') : NULL;
    size_t len = close ? (size_t)(close - p - 1) : 0;
    if (!close || !exec_var_name_ok(p + 1, len)) {
      ok = put(&g, p, 1);
      p++;
      continue;
    }
    bool keep = false;
    const char *value = lookup(vars, p + 1, len, &keep);
    if (!value) {
      char known[512];
      known_names(vars, known, sizeof known);
      snprintf(err, errlen, "{%.*s} names no variable (known: %s)", (int)len, p + 1, known);
      free(g.text);
      return NULL;
    }
    ok = keep ? put(&g, p, len + 2) : put(&g, value, strlen(value));
    p = close + 1;
  }
  if (!ok) {
    snprintf(err, errlen, "out of memory");
    free(g.text);
    return NULL;
  }
  return g.text;
}
