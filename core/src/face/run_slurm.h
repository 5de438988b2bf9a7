/* rigor run --slurm's parts of the face: the submitting side (the batch job that runs this
 * very command, less its allocation's flags, as the campaign's driver), the driver's side (the
 * allocation's nodes for the runner's campaign, and what it forwards to its steps), and a
 * step's run list. */
#ifndef RIGOR_RUN_SLURM_H
#define RIGOR_RUN_SLURM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "campaign.h"
#include "runner.h"
#include "experiment.h"
#include "slurm_submit.h"

/* The options a driver does not forward to its steps (the results file, resuming, the view). */
extern const char *const rigor_run_step_drops_value[];
extern const char *const rigor_run_step_drops_flag[];

/* A step's runs, "4,5,7", with its share of the deadline in seconds after '@' ("4,5@30"; 0
 * when none), or "all" (*runs NULL, *n 0); 0, or -1 when the text is no such list. *runs is
 * the caller's. */
int rigor_run_parse_runs(const char *text, uint32_t **runs, size_t *n, double *left_s);

/* A step's records go back to its driver over stdout, which srun carries to the driver's node
 * whatever file systems the nodes share; its own results file is a private one on its node. */
typedef struct rigor_step_channel {
  int fd;                 /* stdout as srun gave it */
  char dir[4096];         /* the step's private folder */
  char output[4096 + 16]; /* its results file there */
  /* The on_record callback each record goes on to after the channel, NULL for none. */
  int (*next)(void *arg, const rigor_job_t *job, const json_t *rec, char *err, size_t errlen);
  void *next_arg;
} rigor_step_channel_t;

/* Takes stdout for the records (stdout then writes to stderr) and makes the private folder; 0,
 * or -1 after saying why on stderr. */
int rigor_run_step_channel_open(rigor_step_channel_t *ch);
/* An on_record callback for the runner: each record as one line on the channel, then to
 * ch->next. */
int rigor_run_step_forward(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                           size_t errlen);
/* The same without ch->next: for the raw telemetry sidecar's lines (on_telemetry). */
int rigor_run_step_send(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                        size_t errlen);
/* Closes the channel and removes the private folder. */
void rigor_run_step_channel_close(rigor_step_channel_t *ch);

/* Inside the allocation: its nodes (*nodes, an array the names point into) and their CPUs
 * (*cpus), for the runner's campaign c. 0, or -1 after saying why on stderr. */
int rigor_run_campaign_of(rigor_campaign_t *c, json_t **nodes, unsigned **cpus, const char *self,
                          const char **step_args);

/* Outside it: submits `rigor __campaign` with argv (rigor run's, from "run") less the
 * allocation's flags, and waits. The job's exit code, or -1 after saying why on stderr. */
int rigor_run_submit(const rigor_config_t *cfg, rigor_slurm_request_t *req, const char *self,
                     int argc, char **argv);

#endif
