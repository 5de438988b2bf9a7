/* Binding a run to CPUs (environment.affinity). Canonical settings: null | {"cpus": [0, 2]} |
 * {"numa": 1}. */
#ifndef RIGOR_AFFINITY_H
#define RIGOR_AFFINITY_H

#include <jansson.h>
#include <stddef.h>

/* Checks an affinity object against this machine without applying it (config validation). */
int rigor_affinity_check(const json_t *affinity, char *err, size_t errlen);
/* Binds the calling process (all future threads) to the affinity; writes the CPUs actually
 * obtained. A null affinity leaves the binding as it is and reports the current one. */
int rigor_affinity_apply(const json_t *affinity, int *cpus, int cap, int *n_cpus, char *err,
                         size_t errlen);
/* OMP_PLACES for the bound CPUs, one place per CPU ("{0},{2}"), so that with OMP_PROC_BIND=close
 * OpenMP thread i runs on the i-th CPU. Returns 0, or RIGOR_ERANGE when `cap` is too small. */
int rigor_affinity_omp_places(const int *cpus, int n_cpus, char *buf, size_t cap);
/* Checks that `cpus` is a non-empty array of distinct CPUs of this machine; `what` prefixes
 * errors. */
int rigor_cpu_list_check(const json_t *cpus, const char *what, char *err, size_t errlen);

#endif
