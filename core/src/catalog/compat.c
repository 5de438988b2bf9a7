#include "compat.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "describe.h"

static bool same_text(const char *x, const char *y) {
  return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

static const char *shown(const char *s) {
  return s ? s : "none";
}

/* A NULL-terminated list as "a, b, c" (cut to the buffer). */
static void join(const char *const *list, char *out, size_t len) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; list && list[i] && used < len; i++)
    used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", list[i]);
  if (!list) snprintf(out, len, "none");
}

static bool same_list(const char *const *x, const char *const *y) {
  size_t i = 0;
  for (; x && y && x[i] && y[i]; i++)
    if (strcmp(x[i], y[i]) != 0) return false;
  return (!x || !x[i]) && (!y || !y[i]);
}

static const rigor_param_t *param_named(const rigor_plugin_t *p, const char *name) {
  for (uint32_t i = 0; i < p->n_params; i++)
    if (strcmp(p->params[i].name, name) == 0) return &p->params[i];
  return NULL;
}

static const rigor_metric_t *metric_named(const rigor_plugin_t *p, const char *name) {
  for (uint32_t i = 0; i < p->n_metrics; i++)
    if (p->metrics[i].name && strcmp(p->metrics[i].name, name) == 0) return &p->metrics[i];
  return NULL;
}

static int param_diff(const rigor_param_t *pa, const rigor_param_t *pb, char *what, size_t len) {
  char xa[512], xb[512];
  if (pa->type != pb->type) {
    snprintf(what, len, "param '%s' has type %s (%s in the other)", pb->name,
             rigor_param_type_name(pb->type), rigor_param_type_name(pa->type));
    return 1;
  }
  const char *const fields[] = {"default", "min", "max"};
  const char *const va[] = {pa->def, pa->min, pa->max}, *const vb[] = {pb->def, pb->min, pb->max};
  for (size_t f = 0; f < 3; f++)
    if (!same_text(va[f], vb[f])) {
      snprintf(what, len, "param '%s' has %s %s (%s in the other)", pb->name, fields[f],
               shown(vb[f]), shown(va[f]));
      return 1;
    }
  if (!same_list(pa->choices, pb->choices)) {
    join(pa->choices, xa, sizeof xa);
    join(pb->choices, xb, sizeof xb);
    snprintf(what, len, "param '%s' has choices %.200s (%.200s in the other)", pb->name, xb, xa);
    return 1;
  }
  if (!same_list(pa->aliases, pb->aliases)) {
    join(pa->aliases, xa, sizeof xa);
    join(pb->aliases, xb, sizeof xb);
    snprintf(what, len, "param '%s' has aliases %.200s (%.200s in the other)", pb->name, xb, xa);
    return 1;
  }
  return 0;
}

int rigor_plugin_schema_diff(const rigor_plugin_t *a, const rigor_plugin_t *b, char *what,
                             size_t len) {
  for (uint32_t i = 0; i < b->n_params; i++) {
    const rigor_param_t *pb = &b->params[i], *pa = param_named(a, pb->name);
    if (!pa) {
      snprintf(what, len, "param '%s' is added", pb->name);
      return 1;
    }
    if (param_diff(pa, pb, what, len)) return 1;
  }
  for (uint32_t i = 0; i < a->n_params; i++)
    if (!param_named(b, a->params[i].name)) {
      snprintf(what, len, "param '%s' is removed", a->params[i].name);
      return 1;
    }
  for (uint32_t i = 0; i < b->n_metrics; i++) {
    const rigor_metric_t *mb = &b->metrics[i], *ma = metric_named(a, mb->name);
    if (!ma) {
      snprintf(what, len, "metric '%s' is added", mb->name);
      return 1;
    }
    if (!same_text(ma->unit, mb->unit) || ma->better != mb->better) {
      snprintf(what, len, "metric '%s' is in %s, %s is better (%s, %s in the other)", mb->name,
               shown(mb->unit), rigor_better_name(mb->better), shown(ma->unit),
               rigor_better_name(ma->better));
      return 1;
    }
  }
  for (uint32_t i = 0; i < a->n_metrics; i++)
    if (!metric_named(b, a->metrics[i].name)) {
      snprintf(what, len, "metric '%s' is removed", a->metrics[i].name);
      return 1;
    }
  return 0;
}
