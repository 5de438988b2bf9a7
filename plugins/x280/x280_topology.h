/* What the plugin asks hwloc: the last-level cache size (for cold-cache eviction), the NUMA node
 * of each CPU, and memory binding of a cluster's buffers where the host has several nodes. */
#ifndef X280_TOPOLOGY_H
#define X280_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

typedef struct x280_topology x280_topology_t;

int x280_topology_open(x280_topology_t **out);
void x280_topology_close(x280_topology_t *topo);
int x280_topology_numa_nodes(const x280_topology_t *topo);
/* The largest data or unified cache, in bytes; 0 when hwloc does not know. */
uint64_t x280_topology_llc_bytes(const x280_topology_t *topo);
/* The logical index of the NUMA node holding `cpu`; 0 on a single-node host. */
int x280_topology_node_of_cpu(const x280_topology_t *topo, int cpu);
/* Orders cpus[0..n) by NUMA node, keeping the given order within a node. */
void x280_topology_sort_cpus(const x280_topology_t *topo, int *cpus, unsigned n);
/* Binds [addr, addr + len) to `node`, moving pages already touched. A no-op on one node. */
int x280_topology_bind(x280_topology_t *topo, void *addr, size_t len, int node);

#endif
