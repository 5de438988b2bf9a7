/* What rigor asks of Slurm, through its own client commands (scontrol): where a process runs
 * (the job, step and node Slurm's environment names), the nodes of a node list, and how a job
 * ended. None of these is a user's command: they only read Slurm's state. */
#ifndef RIGOR_SLURM_H
#define RIGOR_SLURM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "format.h"

/* {job_id, step_id, node, nodes, tasks, rank} from this process's environment (members Slurm
 * did not set are left out), or NULL outside a Slurm job. */
json_t *rigor_slurm_where(void);

/* Under srun, whether this process needs MPI to find its ranks: 0 when it does (several tasks
 * with an MPI bootstrap, PMIx or PMI-2, in the environment), 1 when it is a step's only task
 * (nothing to connect), -1 with `err` when the step has several tasks and no bootstrap (srun
 * without --mpi=pmix). Outside Slurm 0. */
int rigor_slurm_single_task(char *err, size_t errlen);

/* The node names of a Slurm node list ("n[1-3],gpu7"), expanded by `scontrol show hostnames`,
 * as a JSON array of strings; NULL with `err` when it cannot be expanded. */
json_t *rigor_slurm_hostnames(const char *nodelist, char *err, size_t errlen);

/* Every node of the cluster that can run a job (`sinfo -N`: idle, mixed or allocated, and
 * responding), idle ones first, as a JSON array of names; the others into *unusable, an object
 * of name -> state ("down*", "drained"). NULL with `err` when Slurm cannot be asked or no node
 * can run. */
json_t *rigor_slurm_all_nodes(json_t **unusable, char *err, size_t errlen);

/* A job's state and reason as `scontrol show job` gives them ("CANCELLED", "TimeLimit");
 * returns 0, or -1 when Slurm no longer knows the job. */
int rigor_slurm_job_state(const char *job_id, char *state, size_t state_len, char *reason,
                          size_t reason_len);
/* The same and, where exit_code is not NULL, the batch script's exit code (128 + the signal
 * that ended it). */
int rigor_slurm_job_info(const char *job_id, char *state, size_t state_len, char *reason,
                         size_t reason_len, int *exit_code);
/* Whether a job in this state has ended (COMPLETED, FAILED, CANCELLED, TIMEOUT...). */
bool rigor_slurm_job_ended(const char *state);

/* A run whose process did not end on its own, under Slurm: when its job ended in one of Slurm's
 * end states (a time limit, a node failure, a cancellation, a preemption), the run is
 * interrupted (a --resume runs it again) and its reason names the state. `where` is the run's
 * rigor_slurm_where(); its "state" member is set to the job's state. Returns whether it changed
 * the outcome. */
bool rigor_slurm_explain(json_t *where, rigor_run_status_t *status, char *reason,
                         size_t reason_len);

#endif
