/* A loaded plugin as the experiment record describes it. */
#ifndef RIGOR_DESCRIBE_H
#define RIGOR_DESCRIBE_H

#include <jansson.h>

#include "loader.h"

/* {name, version, file, sha256, params: [{name, type, default}], metrics: [{name, unit,
 * better}], primary_metric (only when the plugin declares one)}. */
json_t *rigor_plugin_describe(const rigor_loaded_t *p);
/* Appends to desc's metrics those the plugin declares for one variant's canonical params
 * (declare_metrics), skipping names already listed. */
int rigor_plugin_describe_declared(json_t *desc, const rigor_plugin_t *d, const json_t *params,
                                   char *err, size_t errlen);
/* The name of a param type ("size", "enum", ...). */
const char *rigor_param_type_name(rigor_param_type_t type);
/* "higher", "lower" or "none" (RIGOR_NOT_A_FIGURE), as records and listings spell it. */
const char *rigor_better_name(int better);

#endif
