/* The hooks rigor calls before anything runs: check_params (refusals with the param at fault),
 * commands (what `rigor plan` lists) and declare_metrics (the metrics the params name). */
#ifndef EXEC_CONFIG_H
#define EXEC_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec_params.h"
#include "rigor/plugin.h"

int exec_check_params(const void *params, const rigor_points_t *points, char *err, size_t errlen,
                      const char **param);
int exec_commands(const void *params, const rigor_points_t *points, char *out, size_t cap);
int exec_declare_metrics(const void *params, rigor_metric_decl_t *out, uint32_t cap);
/* Metrics are declared once per run and the stdout check compiled once, so no sweep point may
 * change them. */
bool exec_same_checks(const exec_params_t *a, const exec_params_t *b);

#endif
