#include "affinity.h"
#include "rigor/plugin.h"

#include <errno.h>
#include <sched.h>
#include <hwloc.h>
#include <stdio.h>
#include <string.h>

static int topology_open(hwloc_topology_t *topo, char *err, size_t errlen) {
  if (hwloc_topology_init(topo) != 0) {
    snprintf(err, errlen, "hwloc: cannot initialise the topology");
    return RIGOR_ENOMEM;
  }
  if (hwloc_topology_load(*topo) != 0) {
    hwloc_topology_destroy(*topo);
    snprintf(err, errlen, "hwloc: cannot read this machine's topology");
    return RIGOR_EIO;
  }
  return 0;
}

/* Adds the CPUs of a JSON list to `set`, refusing CPUs this process may not use or that do not
 * exist (hwloc's topology cpuset holds exactly the allowed ones). */
static int cpu_list_parse(hwloc_topology_t topo, const json_t *cpus, const char *what,
                          hwloc_bitmap_t set, char *err, size_t errlen) {
  if (!json_is_array(cpus) || json_array_size(cpus) == 0) {
    snprintf(err, errlen, "%s: 'cpus' must be a non-empty list of CPU numbers", what);
    return RIGOR_ECONFIG;
  }
  hwloc_const_cpuset_t machine = hwloc_topology_get_topology_cpuset(topo);
  size_t i;
  const json_t *v;
  json_array_foreach(cpus, i, v) {
    json_int_t cpu = json_is_integer(v) ? json_integer_value(v) : -1;
    if (cpu < 0) {
      snprintf(err, errlen, "%s: 'cpus' entries must be non-negative integers", what);
      return RIGOR_ECONFIG;
    }
    if (cpu > 1 << 20 || !hwloc_bitmap_isset(machine, (unsigned)cpu)) {
      char avail[256];
      hwloc_bitmap_list_snprintf(avail, sizeof avail, machine);
      snprintf(err, errlen, "%s: CPU %lld does not exist on this machine (available CPUs: %s)",
               what, (long long)cpu, avail);
      return RIGOR_ECONFIG;
    }
    if (hwloc_bitmap_isset(set, (unsigned)cpu)) {
      snprintf(err, errlen, "%s: CPU %lld is listed twice", what, (long long)cpu);
      return RIGOR_ECONFIG;
    }
    hwloc_bitmap_set(set, (unsigned)cpu);
  }
  return 0;
}

int rigor_cpu_list_check(const json_t *cpus, const char *what, char *err, size_t errlen) {
  hwloc_topology_t topo;
  int rc = topology_open(&topo, err, errlen);
  if (rc != 0) return rc;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  rc = set ? cpu_list_parse(topo, cpus, what, set, err, errlen) : RIGOR_ENOMEM;
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
  return rc;
}

/* Fills `set` with the CPUs the affinity object names. */
static int affinity_cpuset(hwloc_topology_t topo, const json_t *affinity, hwloc_bitmap_t set,
                           char *err, size_t errlen) {
  if (!json_is_object(affinity)) {
    snprintf(err, errlen, "affinity: expected null, {cpus: [...]} or {numa: N}");
    return RIGOR_ECONFIG;
  }
  const json_t *cpus = json_object_get(affinity, "cpus");
  const json_t *numa = json_object_get(affinity, "numa");
  const char *key;
  const json_t *v;
  json_object_foreach((json_t *)affinity, key, v) {
    if (strcmp(key, "cpus") != 0 && strcmp(key, "numa") != 0) {
      snprintf(err, errlen, "affinity: unknown key '%s' (expected 'cpus' or 'numa')", key);
      return RIGOR_ECONFIG;
    }
  }
  if ((cpus != NULL) == (numa != NULL)) {
    snprintf(err, errlen, "affinity: give exactly one of 'cpus' and 'numa'");
    return RIGOR_ECONFIG;
  }
  if (cpus) return cpu_list_parse(topo, cpus, "affinity", set, err, errlen);

  json_int_t node = json_is_integer(numa) ? json_integer_value(numa) : -1;
  if (node < 0) {
    snprintf(err, errlen, "affinity: 'numa' must be a non-negative integer");
    return RIGOR_ECONFIG;
  }
  hwloc_obj_t obj =
      node > 1 << 20 ? NULL : hwloc_get_numanode_obj_by_os_index(topo, (unsigned)node);
  if (!obj) {
    snprintf(err, errlen, "affinity: NUMA node %lld does not exist on this machine (%d node(s))",
             (long long)node, hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE));
    return RIGOR_ECONFIG;
  }
  if (!obj->cpuset || hwloc_bitmap_iszero(obj->cpuset)) {
    snprintf(err, errlen, "affinity: NUMA node %lld has no CPUs this process may use",
             (long long)node);
    return RIGOR_ECONFIG;
  }
  hwloc_bitmap_copy(set, obj->cpuset);
  return 0;
}

int rigor_affinity_check(const json_t *affinity, char *err, size_t errlen) {
  if (!affinity || json_is_null(affinity)) return 0;
  hwloc_topology_t topo;
  int rc = topology_open(&topo, err, errlen);
  if (rc != 0) return rc;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  rc = set ? affinity_cpuset(topo, affinity, set, err, errlen) : RIGOR_ENOMEM;
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
  return rc;
}

int rigor_affinity_apply(const json_t *affinity, int *cpus, int cap, int *n_cpus, char *err,
                         size_t errlen) {
  if (cap < 0 || (cap > 0 && !cpus) || !n_cpus) return RIGOR_EINVAL;
  if (!affinity || json_is_null(affinity)) {
    /* Nothing to bind: report the inherited binding without loading the topology, which
     * costs milliseconds in every run's process. */
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) {
      snprintf(err, errlen, "affinity: cannot read the binding: %s", strerror(errno));
      return RIGOR_EIO;
    }
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
      if (CPU_ISSET(c, &mask)) {
        if (n < cap) cpus[n] = c;
        n++;
      }
    *n_cpus = n;
    return 0;
  }
  hwloc_topology_t topo;
  int rc = topology_open(&topo, err, errlen);
  if (rc != 0) return rc;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (!set) {
    hwloc_topology_destroy(topo);
    return RIGOR_ENOMEM;
  }
  if (affinity && !json_is_null(affinity)) {
    rc = affinity_cpuset(topo, affinity, set, err, errlen);
    /* PROCESS binds every thread, including OpenMP threads created later, which inherit it. */
    if (rc == 0 && hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
      char want[256];
      hwloc_bitmap_list_snprintf(want, sizeof want, set);
      snprintf(err, errlen, "affinity: cannot bind to CPUs %s: %s", want, strerror(errno));
      rc = RIGOR_EIO;
    }
  }
  if (rc == 0 && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
    snprintf(err, errlen, "affinity: cannot read the binding obtained: %s", strerror(errno));
    rc = RIGOR_EIO;
  }
  if (rc == 0) {
    int n = 0;
    unsigned cpu;
    hwloc_bitmap_foreach_begin(cpu, set) {
      if (n < cap) cpus[n] = (int)cpu;
      n++;
    }
    hwloc_bitmap_foreach_end();
    *n_cpus = n;
  }
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
  return rc;
}

int rigor_affinity_omp_places(const int *cpus, int n_cpus, char *buf, size_t cap) {
  if (n_cpus < 0 || (n_cpus > 0 && !cpus) || !buf || cap == 0) return RIGOR_EINVAL;
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n_cpus; i++) {
    int w = snprintf(buf + used, cap - used, "%s{%d}", i ? "," : "", cpus[i]);
    if (w < 0 || (size_t)w >= cap - used) {
      buf[0] = '\0';
      return RIGOR_ERANGE;
    }
    used += (size_t)w;
  }
  return 0;
}
