#include "x280_topology.h"

#include <hwloc.h>
#include <stdlib.h>

#include "rigor/plugin.h"

struct x280_topology {
  hwloc_topology_t hw;
  int numa_nodes;
};

int x280_topology_open(x280_topology_t **out) {
  x280_topology_t *topo = calloc(1, sizeof *topo);
  if (!topo) return RIGOR_ENOMEM;
  if (hwloc_topology_init(&topo->hw) != 0) {
    free(topo);
    return RIGOR_EIO;
  }
  if (hwloc_topology_load(topo->hw) != 0) {
    hwloc_topology_destroy(topo->hw);
    free(topo);
    return RIGOR_EIO;
  }
  int nodes = hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_NUMANODE);
  topo->numa_nodes = nodes > 0 ? nodes : 1;
  *out = topo;
  return 0;
}

void x280_topology_close(x280_topology_t *topo) {
  if (!topo) return;
  hwloc_topology_destroy(topo->hw);
  free(topo);
}

int x280_topology_numa_nodes(const x280_topology_t *topo) {
  return topo->numa_nodes;
}

uint64_t x280_topology_llc_bytes(const x280_topology_t *topo) {
  uint64_t largest = 0;
  for (hwloc_obj_type_t t = HWLOC_OBJ_L1CACHE; t <= HWLOC_OBJ_L5CACHE; t++) {
    hwloc_obj_t obj = NULL;
    while ((obj = hwloc_get_next_obj_by_type(topo->hw, t, obj)) != NULL) {
      if (obj->attr && obj->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION &&
          obj->attr->cache.size > largest)
        largest = obj->attr->cache.size;
    }
  }
  return largest;
}

int x280_topology_node_of_cpu(const x280_topology_t *topo, int cpu) {
  if (topo->numa_nodes <= 1) return 0;
  hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo->hw, (unsigned)cpu);
  hwloc_obj_t node = NULL;
  while ((node = hwloc_get_next_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, node)) != NULL) {
    if (pu && hwloc_bitmap_isset(node->cpuset, pu->os_index)) return (int)node->logical_index;
  }
  return 0;
}

void x280_topology_sort_cpus(const x280_topology_t *topo, int *cpus, unsigned n) {
  if (topo->numa_nodes <= 1) return;
  for (unsigned i = 1; i < n; i++) {
    int cpu = cpus[i];
    int node = x280_topology_node_of_cpu(topo, cpu);
    unsigned j = i;
    for (; j > 0 && x280_topology_node_of_cpu(topo, cpus[j - 1]) > node; j--)
      cpus[j] = cpus[j - 1];
    cpus[j] = cpu;
  }
}

int x280_topology_bind(x280_topology_t *topo, void *addr, size_t len, int node) {
  if (topo->numa_nodes <= 1) return 0;
  hwloc_obj_t obj = hwloc_get_obj_by_type(topo->hw, HWLOC_OBJ_NUMANODE, (unsigned)node);
  if (!obj) return RIGOR_EINVAL;
  int rc = hwloc_set_area_membind(topo->hw, addr, len, obj->nodeset, HWLOC_MEMBIND_BIND,
                                  HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_MIGRATE);
  return rc == 0 ? 0 : RIGOR_EIO;
}
