/* A loaded plugin as the experiment record describes it. */
#ifndef RIGOR_DESCRIBE_H
#define RIGOR_DESCRIBE_H

#include <jansson.h>

#include "loader.h"

/* {name, version, file, sha256, params: [{name, type, default}], metrics: [{name, unit,
 * better}], primary_metric (only when the plugin declares one)}. */
json_t *rigor_plugin_describe(const rigor_loaded_t *p);
/* The name of a param type ("size", "enum", ...). */
const char *rigor_param_type_name(rigor_param_type_t type);

#endif
