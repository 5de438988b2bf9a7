#include "exec_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_points.h"

static const char *text_or_empty(const char *s) {
  return s ? s : "";
}

bool exec_same_checks(const exec_params_t *a, const exec_params_t *b) {
  return strcmp(text_or_empty(a->metrics), text_or_empty(b->metrics)) == 0 &&
         strcmp(text_or_empty(a->expect_stdout), text_or_empty(b->expect_stdout)) == 0;
}

/* Each point is what a run executes (the base params are only its starting point: a sweep may
 * give the command or a variable it needs). */
int exec_check_params(const void *params, const rigor_points_t *points, char *err, size_t errlen,
                      const char **param) {
  (void)params;
  for (uint32_t i = 0; i < points->count; i++) {
    const exec_params_t *p = points->points[i], *first = points->points[0];
    exec_spec_t spec;
    int rc = exec_spec_parse(p, &spec, err, errlen, param);
    if (!rc) {
      rc = exec_spec_check_placeholders(&spec, err, errlen, param);
      exec_spec_free(&spec);
    }
    if (rc) {
      size_t used = strlen(err);
      if (points->count > 1 && used < errlen)
        snprintf(err + used, errlen - used, " (at sweep point %u of %u)", i + 1, points->count);
      return rc;
    }
    if (!exec_same_checks(first, p)) {
      snprintf(err, errlen, "is declared once per run, so a sweep may not change it");
      *param = strcmp(text_or_empty(first->metrics), text_or_empty(p->metrics)) ? "metrics"
                                                                                : "expect_stdout";
      return RIGOR_ECONFIG;
    }
  }
  return 0;
}

/* Appends line once; returns 1 when it was new. */
static int add_line(char *out, size_t cap, const char *line) {
  size_t len = strlen(line);
  for (const char *at = out; (at = strstr(at, line)); at += len)
    if ((at == out || at[-1] == '\n') && at[len] == '\n') return 0;
  size_t used = strlen(out);
  if (used < cap) snprintf(out + used, cap - used, "%s\n", line);
  return 1;
}

int exec_commands(const void *params, const rigor_points_t *points, char *out, size_t cap) {
  (void)params;
  out[0] = '\0';
  int count = 0;
  /* A line as long as the whole list may be: a command is never cut short on its own. */
  char *line = malloc(cap);
  if (!line) return -1;
  for (uint32_t i = 0; i < points->count; i++) {
    exec_point_t pt;
    char err[512];
    const char *param = NULL;
    if (exec_point_prepare(points->points[i], NULL, &pt, err, sizeof err, &param)) {
      free(line);
      return -1;
    }
    for (int h = -1; h < EXEC_N_HOOKS; h++) {
      const exec_cmd_t *c = h < 0 ? &pt.cmd : &pt.hooks[h];
      if (!c->argv) continue;
      int used = h < 0 ? 0 : snprintf(line, cap, "%s: ", exec_hook_names[h]);
      exec_cmd_describe(c, &pt.spec, line + used, cap - (size_t)used);
      count += add_line(out, cap, line);
    }
    exec_point_release(&pt);
  }
  free(line);
  return count;
}

int exec_declare_metrics(const void *params, rigor_metric_decl_t *out, uint32_t cap) {
  exec_spec_t spec;
  char err[512];
  const char *param = NULL;
  if (exec_spec_parse_metrics(params, &spec, err, sizeof err, &param)) return -1;
  uint32_t n = 0;
  for (size_t i = 0; i < spec.n_metrics && n < cap; i++, n++) {
    const exec_metric_spec_t *m = &spec.metrics[i];
    memset(&out[n], 0, sizeof out[n]);
    snprintf(out[n].name, sizeof out[n].name, "%s", m->name);
    snprintf(out[n].unit, sizeof out[n].unit, "%s", m->unit);
    out[n].better = m->better;
    snprintf(out[n].help, sizeof out[n].help, "group 1 of /%.80s/ in the last execution's %s",
             m->regex, m->from_stderr ? "stderr" : "stdout");
  }
  exec_spec_free(&spec);
  return (int)n;
}
