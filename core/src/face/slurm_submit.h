/* `--slurm` on the command line: the allocation a campaign (rigor run) or a screen (rigor
 * screen) asks for, from the file's `executor.slurm` and the flags that override it; the batch
 * job that runs rigor's own driver inside it (sbatch, then scontrol until it ends); and the
 * arguments a driver forwards to what it starts. sbatch and srun are rigor's own commands here, not
 * a user's. */
#ifndef RIGOR_SLURM_SUBMIT_H
#define RIGOR_SLURM_SUBMIT_H

#include <jansson.h>
#include <stddef.h>

typedef struct rigor_slurm_request {
  const char *nodes;     /* a count ("2") or a node list ("n[1-2]"), NULL: Slurm's default */
  const char *partition; /* NULL: the default partition */
  const char *time;      /* Slurm's syntax ("30", "1:00:00"), NULL: the partition's limit */
  const char *account;
} rigor_slurm_request_t;

/* Fills what the flags left NULL from `executor` ({slurm: {nodes, partition, time_s, account}}
 * or NULL); `scratch` holds the texts it makes (64 bytes each, 3 of them). */
void rigor_slurm_request_defaults(rigor_slurm_request_t *req, const json_t *executor,
                                  char scratch[3][64]);

/* Submits `argv` (NULL-terminated, run in this folder) as one batch job named `name`, of whole
 * nodes (--exclusive), and waits for it to end (asking scontrol every half second); its output goes
 * to `log` (%j is the job id). Says the job id on stderr as soon as Slurm gives it. Returns the
 * job's exit code, or -1 with `err` when it could not be submitted. */
int rigor_slurm_run_job(const rigor_slurm_request_t *req, const char *name, const char *log,
                        char *const *argv, char *err, size_t errlen);

/* argv[1..argc) without the options named in `drop_value` (each with its value, as --name V,
 * --name=V or -x V) and `drop_flag`; a NULL-terminated array of borrowed strings. */
const char **rigor_args_without(int argc, char **argv, const char *const *drop_value,
                                const char *const *drop_flag);

#endif
