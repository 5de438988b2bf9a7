/* `rigor check`: what on this machine disturbs measurements. */
#ifndef RIGOR_CHECKS_H
#define RIGOR_CHECKS_H

#include <jansson.h>

/* An array of {"check", "status": "ok"|"warn"|"unavailable", "detail", "advice", "why"};
 * "unavailable" where this machine does not expose what the check reads. */
json_t *rigor_env_check(void);

/* For tests: `root` prefixes every /sys and /proc path; window_s is how long load and swap are
 * sampled. */
json_t *rigor__env_check_at(const char *root, double window_s);

#endif
