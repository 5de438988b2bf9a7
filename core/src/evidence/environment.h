/* Checks of environment settings against this machine, lent to the config loader
 * (rigor_config_opts_t.check_machine). */
#ifndef RIGOR_ENVIRONMENT_H
#define RIGOR_ENVIRONMENT_H

#include <jansson.h>
#include <stddef.h>

/* field is "affinity" or "noise"; other fields pass. Returns 0 or RIGOR_EINVAL with err. */
int rigor_environment_check(const char *field, const json_t *value, char *err, size_t errlen);

#endif
