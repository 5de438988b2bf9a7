/* Host identity: host, kernel, CPU model, topology, caches, NUMA, governor, boost, SMT, ASLR,
 * compiler and flags, rigor version and git hash, relevant environment variables. */
#ifndef RIGOR_IDENTITY_H
#define RIGOR_IDENTITY_H

#include <jansson.h>

json_t *rigor_identity_host(void);

/* For this part and its tests: `root` prefixes every /sys and /proc path; "" is the running
 * system. */
json_t *rigor__identity_host_at(const char *root);
/* {"driver", "governor" (the one name, "mixed" or null), "governors" ({name: [cpus]}), "boost"
 * (true, false or null), "boost_source"} from cpufreq under root. */
json_t *rigor__cpufreq_state(const char *root);

#endif
