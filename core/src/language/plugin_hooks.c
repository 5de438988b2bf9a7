#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"
#include "run_params.h"

#define COMMANDS_CAP (64u << 10)
#define COMMANDS_MAX (16u << 20) /* where a list of commands is cut, with a mark */

/* The key node of a matrix or sweep axis that sets `param` (itself or one of its members). */
static const rigor__node_t *axis_key(const rigor__node_t *axes, const char *param) {
  if (!axes || axes->kind != RIGOR__MAP) return NULL;
  for (size_t i = 0; i < axes->n; i++)
    if (rigor__axes_overlap(axes->keys[i]->text, param)) return axes->keys[i];
  return NULL;
}

/* Where a param of this experiment was set: the matrix or sweep axis that varies it, else its
 * value under params, else the params map, else the experiment. Merged nodes keep their own file
 * and position, so a param set in an extended base is reported there. */
static const rigor__node_t *param_node(const rigor__node_t *n, const char *param) {
  const rigor__node_t *params = rigor__get(n, "params"), *at = NULL;
  if (!param) return params ? params : n;
  if ((at = axis_key(rigor__get(n, "matrix"), param))) return at;
  if ((at = axis_key(rigor__get(n, "sweep"), param))) return at;
  if ((at = rigor__get(params, param))) return at;
  const char *dot = strchr(param, '.');
  if (dot) {
    char head[128];
    snprintf(head, sizeof head, "%.*s", (int)(dot - param), param);
    const rigor__node_t *whole = rigor__get(params, head);
    if ((at = rigor__get(whole, dot + 1)) || (at = whole)) return at;
  }
  return params ? params : n;
}

static int check_variant(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                         const rigor_experiment_t *e, const rigor_variant_t *v,
                         const rigor_run_params_t *rp) {
  char msg[1024] = "";
  const char *param = NULL;
  if (d->check_params(rp->base, &rp->points, msg, sizeof msg, &param) >= 0) return 0;
  msg[sizeof msg - 1] = '\0';
  char where[512] = "";
  if (e->n_variants > 1) snprintf(where, sizeof where, " (variant %s)", v->label);
  /* The name comes from the plugin's table or its own text: copy it before trusting it. */
  char name[128] = "";
  if (param) snprintf(name, sizeof name, "%s", param);
  if (name[0])
    return rigor__fail(c, param_node(n, name), "plugin '%s': param '%s': %s%s", d->name, name,
                       msg[0] ? msg : "refused", where);
  return rigor__fail(c, param_node(n, NULL), "plugin '%s': %s%s", d->name,
                     msg[0] ? msg : "the params are refused", where);
}

/* The plugin's list, in full: a list that fills the buffer is asked for again with a larger
 * one; past the largest, the plan says where it was cut and how many commands it left out. */
static int list_commands(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                         rigor_variant_t *v, const rigor_run_params_t *rp, char **buf,
                         size_t *cap) {
  if (!d->commands) {
    v->commands = strdup("(the plugin does not list its commands)");
    return v->commands ? 0 : rigor__fail(c, n, "out of memory");
  }
  int count;
  size_t len;
  for (;;) {
    (*buf)[0] = '\0';
    count = d->commands(rp->base, &rp->points, *buf, *cap);
    (*buf)[*cap - 1] = '\0';
    len = strlen(*buf);
    if (count < 0 || len + 1 < *cap || *cap >= COMMANDS_MAX) break;
    char *grown = realloc(*buf, *cap * 4);
    if (!grown) return rigor__fail(c, n, "out of memory");
    *buf = grown, *cap *= 4;
  }
  if (count < 0)
    return rigor__fail(c, param_node(n, NULL), "plugin '%s': cannot list its commands (%d)",
                       d->name, count);
  if (count == 0) return 0;
  bool cut = len + 1 >= *cap;
  if (cut) /* a cut last line is no command: end at the last whole one */
    while (len > 0 && (*buf)[len - 1] != '\n')
      (*buf)[--len] = '\0';
  while (len > 0 && (*buf)[len - 1] == '\n')
    (*buf)[--len] = '\0';
  size_t lines = len ? 1 : 0;
  for (size_t i = 0; i < len; i++)
    lines += (*buf)[i] == '\n';
  char mark[256] = "";
  if (cut || lines < (size_t)count)
    snprintf(
        mark, sizeof mark, "%s[cut: %zu of the %d commands are shown%s]", len ? "\n" : "", lines,
        count,
        cut ? "; a variant lists up to 16 MiB: split its sweep into experiments to see the rest"
            : "");
  const char *text = len ? *buf : mark[0] ? "" : "(unnamed command)";
  size_t size = strlen(text) + strlen(mark) + 1;
  if (!(v->commands = malloc(size))) return rigor__fail(c, n, "out of memory");
  snprintf(v->commands, size, "%s%s", text, mark);
  return 0;
}

int rigor__plugin_hooks(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                        rigor_experiment_t *e) {
  bool runs = (d->flags & RIGOR_PLUGIN_RUNS_COMMANDS) != 0;
  e->runs_commands = false;
  if (!d->check_params && !runs && !d->footprint) return 0;
  size_t cap = COMMANDS_CAP;
  char *buf = runs ? malloc(cap) : NULL;
  if (runs && !buf) return rigor__fail(c, n, "out of memory");
  int rc = 0;
  for (uint32_t i = 0; i < e->n_variants && rc == 0; i++) {
    rigor_variant_t *v = &e->variants[i];
    rigor_run_params_t rp;
    char msg[1024];
    if (rigor_run_params_build(d, json_object_get(v->settings, "params"),
                               json_object_get(v->settings, "sweep"), &rp, msg, sizeof msg) < 0) {
      rc = rigor__fail(c, param_node(n, NULL), "plugin '%s': %s", d->name, msg);
      break;
    }
    if (d->check_params) rc = check_variant(c, d, n, e, v, &rp);
    if (!rc && runs) rc = list_commands(c, d, n, v, &rp, &buf, &cap);
    if (!rc && d->footprint) v->footprint = d->footprint(rp.base, &rp.points);
    e->runs_commands = e->runs_commands || v->commands != NULL;
    rigor_run_params_free(d, &rp);
  }
  free(buf);
  return rc;
}
