/* Whether two builds of a plugin can share one experiment: the same params and metrics, so that
 * one resolved config means the same thing to both. */
#ifndef RIGOR_COMPAT_H
#define RIGOR_COMPAT_H

#include <stddef.h>

#include "rigor/plugin.h"

/* 0 when `b` declares exactly the schema of `a`: the same params (by name: type, default,
 * bounds, enum choices and aliases) and the same metrics (by name: unit and better direction).
 * Otherwise 1, with the first difference as `b` sees it in `what`, e.g. "param 'n' is added",
 * "param 'elements' has type int (uint in the other)". Help texts and table order may differ. */
int rigor_plugin_schema_diff(const rigor_plugin_t *a, const rigor_plugin_t *b, char *what,
                             size_t len);

#endif
