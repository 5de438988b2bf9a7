/* A campaign inside one Slurm allocation: the schedule's blocks run as job steps, each block
 * whole on one node (the node is a blocking factor: a block's runs pair inside a node), one step
 * per node at a time and the nodes all busy at once. Each step is `srun --nodes=1 --ntasks=1
 * --nodelist=NODE --exact rigor __step RUNS ...`, which runs those runs of one block as `rigor
 * run` would and sends every record it writes over its stdout, which srun carries back to the
 * driver's node into a part beside the results file: no file system need be shared with the
 * nodes. When a step ends, the driver appends the part's finished runs to the one results file,
 * with the attempt numbers the file's history gives them, whatever order the steps end in. A
 * part left by a driver that died is merged by the next one (--resume), so a run that finished
 * is never lost, and a run the file holds is never appended twice. An adaptive experiment
 * (order.replicates with a precision, or a deadline) is judged by the driver as blocks end: no
 * block starts once it is answered or past its deadline, the blocks still running finish, and
 * the stop record comes last. */
#ifndef RIGOR_CAMPAIGN_H
#define RIGOR_CAMPAIGN_H

#include <stddef.h>

typedef struct rigor_campaign {
  const char *const *nodes; /* the allocation's nodes, by name */
  size_t n_nodes;
  /* CPUs of the allocation on each node (by nodes' order), 0 where unknown. */
  const unsigned *cpus;
  /* The step's command: `self __step RUNS` then these (the experiment file and the options
   * the campaign was given), NULL-terminated; the driver adds --only, -o and the quiet flags. */
  const char *self;
  const char *const *step_args;
} rigor_campaign_t;

/* A fleet screen's fan-out: `self STEP_ARGS...` on every node at once, each one job step named
 * `name`, its stdout (the records of a `rigor __step all`) into DIR/NODE.jsonl and its stderr
 * into DIR/NODE.log; waits for them all.
 * statuses[i] is node i's wait status (-1 where its step could not start). Returns 0, or an
 * error with `err` when a step could not be started (those started are still waited for). */
int rigor_campaign_each_node(const rigor_campaign_t *c, const char *dir, const char *name,
                             int *statuses, char *err, size_t errlen);

/* Expands SLURM_JOB_CPUS_PER_NODE ("4(x2),2") to one count per node; 0 where it says less. */
void rigor_campaign_cpus(const char *cpus_per_node, unsigned *out, size_t n_nodes);

#endif
