#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* The level refs names for `axis` ("AXIS=LEVEL"), or NULL. */
static const char *ref_for(const char *const *refs, size_t n, const char *axis) {
  size_t len = strlen(axis);
  for (size_t i = 0; i < n; i++)
    if (strncmp(refs[i], axis, len) == 0 && refs[i][len] == '=') return refs[i] + len + 1;
  return NULL;
}

void rigor_exp_contrasts_free(rigor_exp_contrasts_t *c) {
  for (size_t i = 0; c && i < c->n; i++)
    rigor_contrasts_free(c->sets[i]);
  if (c) free(c->sets), c->sets = NULL, c->n = 0;
}

int rigor_report_contrasts(const rigor_exp_analysis_t *e, const char *const *refs, size_t n_refs,
                           rigor_exp_contrasts_t *out) {
  memset(out, 0, sizeof *out);
  rigor_axis_info_t *axes;
  size_t n_axes;
  int rc = rigor_exp_axes(e, &axes, &n_axes);
  if (rc) return rc;
  out->sets = calloc(n_axes ? n_axes : 1, sizeof *out->sets);
  if (!out->sets) rc = RIGOR_ENOMEM;
  for (size_t i = 0; !rc && i < n_axes; i++) {
    if (axes[i].n_levels < 2) continue;
    const char *ref = ref_for(refs, n_refs, axes[i].name);
    char err[16];
    if (ref && rigor_axis_check(e, axes[i].name, ref, err, sizeof err)) ref = NULL;
    rc = rigor_contrasts_build(e, axes[i].name, ref, &out->sets[out->n]);
    if (!rc) out->n++;
  }
  rigor_exp_axes_free(axes, n_axes);
  if (rc) rigor_exp_contrasts_free(out);
  return rc;
}

int rigor_report_refs_check(const rigor_analysis_t *a, const char *const *refs, size_t n_refs,
                            char *err, size_t errlen) {
  for (size_t i = 0; i < n_refs; i++) {
    const char *eq = strchr(refs[i], '=');
    if (!eq || eq == refs[i] || !eq[1]) {
      snprintf(err, errlen, "--ref takes AXIS=LEVEL, not '%s'", refs[i]);
      return RIGOR_EINVAL;
    }
    char axis[256];
    snprintf(axis, sizeof axis, "%.*s", (int)(eq - refs[i]), refs[i]);
    bool found = false;
    for (size_t x = 0; x < a->n_exps && !found; x++)
      found = rigor_axis_check(&a->exps[x], axis, eq + 1, err, errlen) == 0;
    if (!found) return RIGOR_EINVAL; /* err holds the last experiment's reason */
  }
  return 0;
}
