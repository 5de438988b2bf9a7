/* A resumed experiment must go on with the plugins it began with: the hashes of the files this
 * invocation loaded against those its experiment record holds. */
#ifndef RIGOR_REBUILT_H
#define RIGOR_REBUILT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* `recorded_plugin`/`recorded_builds` are the record's `plugin` and `builds`, `plugin`/`builds`
 * the same for the plugins loaded now. Returns 0 and *changed NULL when every hash matches.
 * A changed one is refused (RIGOR_ECONFIG, naming the file and both hashes) unless `allow`,
 * when *changed receives [{build, file, recorded, now}] for the run records. */
int rigor_rebuilt_check(const json_t *recorded_plugin, const json_t *recorded_builds,
                        const json_t *plugin, const json_t *builds, bool allow, json_t **changed,
                        char *err, size_t errlen);

#endif
