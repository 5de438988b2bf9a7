#include "exec_metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_match.h"

int exec_metrics_compile(const exec_spec_t *s, exec_metric_t **out, char *err, size_t errlen) {
  *out = calloc(s->n_metrics + 1, sizeof **out);
  if (!*out) return snprintf(err, errlen, "out of memory"), RIGOR_ENOMEM;
  for (size_t i = 0; i < s->n_metrics; i++) {
    (*out)[i].spec = &s->metrics[i];
    int rc = regcomp(&(*out)[i].re, s->metrics[i].regex, REG_EXTENDED | REG_NEWLINE);
    if (rc != 0) {
      regerror(rc, &(*out)[i].re, err, errlen);
      exec_metrics_free(*out, i);
      *out = NULL;
      return RIGOR_ECONFIG;
    }
  }
  return 0;
}

void exec_metrics_free(exec_metric_t *m, size_t n) {
  for (size_t i = 0; m && i < n; i++)
    regfree(&m[i].re);
  free(m);
}

double exec_metric_value(const exec_metric_t *m, const char *text, size_t len) {
  regmatch_t g[2];
  if (!exec_match_groups(&m->re, text, len, g, 2) || g[1].rm_so < 0) return NAN;
  char number[128];
  size_t digits = (size_t)(g[1].rm_eo - g[1].rm_so);
  if (digits == 0 || digits >= sizeof number) return NAN;
  memcpy(number, text + g[1].rm_so, digits);
  number[digits] = '\0';
  char *end = NULL;
  double v = strtod(number, &end);
  while (end && (*end == ' ' || *end == '\t'))
    end++;
  return end && end != number && *end == '\0' ? v : NAN;
}
