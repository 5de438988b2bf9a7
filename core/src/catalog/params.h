/* Plugin parameters: YAML text -> canonical JSON (checked against the schema) -> params struct. */
#ifndef RIGOR_PARAMS_H
#define RIGOR_PARAMS_H

#include <jansson.h>
#include <stddef.h>

#include "rigor/plugin.h"

/* Converts one scalar text (as written in YAML, or a schema default) to its canonical JSON value:
 * bool -> true/false, int/uint/size -> integer, double -> real, string/enum -> string. Checks
 * min/max and choices; the message names the parameter ("param 'bytes': ..."). */
int rigor_param_from_text(const rigor_param_t *p, const char *text, json_t **out, char *err,
                          size_t errlen);
/* Text for labels and reports: sizes as "1MiB" where exact, otherwise the canonical value. */
char *rigor_param_format(const rigor_param_t *p, const json_t *value);
const rigor_param_t *rigor_param_lookup(const rigor_plugin_t *d, const char *name);
/* "vars.size": the JSON param `vars` and, in *member, "size"; NULL when key names no member of a
 * JSON param. */
const rigor_param_t *rigor_param_member(const rigor_plugin_t *d, const char *key,
                                        const char **member);
/* params[key] = value, where a member key ("vars.size") sets that member of a copy of the JSON
 * param's object (created when the param holds no object). */
int rigor_params_set(const rigor_plugin_t *d, json_t *params, const char *key, json_t *value);
/* Expands an ENUM alias ("classic") into its choices; returns NULL when `text` is no alias. */
const char *rigor_param_alias(const rigor_param_t *p, const char *text);

/* Object of every param's canonical default. */
json_t *rigor_params_defaults(const rigor_plugin_t *d, char *err, size_t errlen);
/* Fills a zeroed params struct of d->params_size bytes from canonical values (missing members take
 * the schema default; member keys such as "vars.size" are folded into their JSON param first).
 * Strings and JSON text are duplicated; release them with rigor_params_clear. */
int rigor_params_fill(const rigor_plugin_t *d, const json_t *values, void *out, char *err,
                      size_t errlen);
void rigor_params_clear(const rigor_plugin_t *d, void *params);

/* The sweep's points: an array of objects {axis: value} in execution order (first axis
 * outermost), from the canonical sweep array. An empty sweep has one point, {}. */
json_t *rigor_sweep_points(const json_t *sweep);
/* "bytes=1MiB, placement=in" for one point object. */
char *rigor_point_label(const rigor_plugin_t *d, const json_t *point);

#endif
