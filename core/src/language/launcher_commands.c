/* A launcher is a command like any other: each variant that names one lists it, as it would be
 * executed, among the commands `rigor plan` shows and --allow-commands guards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"

/* Appends `text` to *buf, growing it; returns -1 out of memory. */
static int append(char **buf, size_t *len, size_t *cap, const char *text, size_t n) {
  if (*len + n + 1 > *cap) {
    size_t want = (*len + n + 1) * 2;
    char *grown = realloc(*buf, want);
    if (!grown) return -1;
    *buf = grown, *cap = want;
  }
  memcpy(*buf + *len, text, n);
  *len += n;
  (*buf)[*len] = '\0';
  return 0;
}

/* One argument as a shell would need it: bare when it holds only safe characters. */
static int append_quoted(char **buf, size_t *len, size_t *cap, const char *arg) {
  bool bare = *arg != '\0';
  for (const char *p = arg; *p && bare; p++)
    bare = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%", *p);
  if (bare) return append(buf, len, cap, arg, strlen(arg));
  if (append(buf, len, cap, "'", 1)) return -1;
  for (const char *p = arg; *p; p++)
    if (*p == '\'' ? append(buf, len, cap, "'\\''", 4) : append(buf, len, cap, p, 1)) return -1;
  return append(buf, len, cap, "'", 1);
}

/* "launcher: ARGV... (then rigor __child SPEC)" with {ranks} given its value. */
static char *describe(const json_t *launcher, json_int_t ranks) {
  size_t len = 0, cap = 0;
  char *buf = NULL, number[32];
  snprintf(number, sizeof number, "%lld", (long long)ranks);
  if (append(&buf, &len, &cap, "launcher: ", 10)) return free(buf), NULL;
  size_t i;
  const json_t *arg;
  json_array_foreach(launcher, i, arg) {
    const char *text = json_string_value(arg);
    char *at = text ? strstr(text, "{ranks}") : NULL;
    char *expanded = NULL;
    if (at) {
      size_t n = strlen(text) - 7 + strlen(number) + 1;
      if ((expanded = malloc(n)))
        snprintf(expanded, n, "%.*s%s%s", (int)(at - text), text, number, at + 7);
    }
    if ((i && append(&buf, &len, &cap, " ", 1)) || append_quoted(&buf, &len, &cap,
                                                                 expanded ? expanded
                                                                 : text   ? text
                                                                          : "")) {
      free(expanded), free(buf);
      return NULL;
    }
    free(expanded);
  }
  static const char tail[] = " (then rigor __child with the run's spec)";
  if (append(&buf, &len, &cap, tail, sizeof tail - 1)) return free(buf), NULL;
  return buf;
}

int rigor__launcher_commands(rigor__cfg_t *c, const rigor__node_t *n, rigor_experiment_t *e) {
  for (uint32_t i = 0; i < e->n_variants; i++) {
    rigor_variant_t *v = &e->variants[i];
    const json_t *launcher = json_object_get(v->settings, "launcher");
    if (!json_is_array(launcher)) continue;
    char *line = describe(launcher, json_integer_value(json_object_get(v->settings, "ranks")));
    if (!line) return rigor__fail(c, n, "out of memory");
    /* The launcher runs first: it starts whatever the plugin then executes. */
    size_t size = strlen(line) + (v->commands ? strlen(v->commands) + 1 : 0) + 1;
    char *all = malloc(size);
    if (!all) {
      free(line);
      return rigor__fail(c, n, "out of memory");
    }
    snprintf(all, size, "%s%s%s", line, v->commands ? "\n" : "", v->commands ? v->commands : "");
    free(line);
    free(v->commands);
    v->commands = all;
    e->runs_commands = true;
  }
  return 0;
}
