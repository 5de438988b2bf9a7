#include <string.h>

#include "language_internal.h"

/* A variant's label joins its axes' KEY=LABEL parts with ", ". The labels of one axis are unique
 * (axis.c) and keys are param or field names; with no separator inside a label, a variant label
 * splits back into exactly its axes, so two variants can never share one. */

const char *rigor__label_key(const rigor__axis_t *axis) {
  const char *dot = strrchr(axis->key, '.');
  return dot ? dot + 1 : axis->key;
}

static const char *separator_in(const char *text) {
  if (strstr(text, RIGOR__LABEL_AXIS_SEP)) return RIGOR__LABEL_AXIS_SEP;
  if (strstr(text, RIGOR__LABEL_VALUE_SEP)) return RIGOR__LABEL_VALUE_SEP;
  return NULL;
}

static const char *separates(const char *sep) {
  return strcmp(sep, RIGOR__LABEL_VALUE_SEP) == 0 ? "an axis from its value"
                                                  : "one axis from the next";
}

int rigor__label_check(rigor__cfg_t *c, const rigor__axis_t *axis, const rigor__axis_value_t *v,
                       const char *where) {
  const char *key = rigor__label_key(axis);
  const char *sep = separator_in(v->label);
  if (!sep) return 0;
  if (v->labelled)
    return rigor__fail(c, v->node,
                       "%slabel '%s' of axis '%s' holds '%s', which separates %s in variant "
                       "labels ('%s" RIGOR__LABEL_VALUE_SEP "%s'); choose a label without "
                       "'" RIGOR__LABEL_VALUE_SEP "' or '" RIGOR__LABEL_AXIS_SEP "'",
                       where, v->label, axis->key, sep, separates(sep), key, v->label);
  return rigor__fail(c, v->node,
                     "%svalue '%s' of axis '%s' would read '%s" RIGOR__LABEL_VALUE_SEP
                     "%s' in variant labels, where '%s' separates %s; give it a label without "
                     "'" RIGOR__LABEL_VALUE_SEP "' or '" RIGOR__LABEL_AXIS_SEP
                     "': {label: NAME, value: ...}",
                     where, v->label, axis->key, key, v->label, sep, separates(sep));
}

int rigor__axis_check_labels(rigor__cfg_t *c, const rigor__axis_t *axis) {
  for (size_t i = 0; i < axis->n_values; i++)
    if (rigor__label_check(c, axis, &axis->values[i], "")) return RIGOR_ECONFIG;
  return 0;
}
