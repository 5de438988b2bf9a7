#include "run_slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "owned_dirs.h"
#include "rigor/plugin.h"
#include "slurm.h"
#include "writer.h"

/* Runs of a campaign's step and its share of the deadline: "4,5,7" or "4,5,7@12.5". */
int rigor_run_parse_runs(const char *text, uint32_t **runs, size_t *n, double *left_s) {
  *n = 0;
  *left_s = 0;
  *runs = NULL;
  if (strcmp(text, "all") == 0) return 0;
  *runs = calloc(strlen(text) / 2 + 2, sizeof **runs);
  if (!*runs) return -1;
  for (const char *p = text; *p;) {
    char *end = NULL;
    unsigned long k = strtoul(p, &end, 10);
    if (end == p || k > UINT32_MAX) return -1;
    (*runs)[(*n)++] = (uint32_t)k;
    if (*end == '@') {
      *left_s = strtod(end + 1, &end);
      if (!(*left_s > 0) || *end) return -1;
    }
    p = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') return -1;
  }
  return *n ? 0 : -1;
}

int rigor_run_step_channel_open(rigor_step_channel_t *ch) {
  ch->fd = -1;
  /* The channel is this process's stdout as srun gave it; whatever else writes to stdout
   * (a plugin, a library) goes to stderr, the step's log, instead. */
  ch->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (ch->fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    fprintf(stderr, "rigor __step: cannot keep stdout for the records: %s\n", strerror(errno));
    return -1;
  }
  /* The step's own results file stays on its node, in a folder of its own. */
  if (rigor_owned_dir_make("rigor-step", ch->dir, sizeof ch->dir) != 0) {
    fprintf(stderr, "rigor __step: cannot make a folder in %s: %s\n", rigor_tmp_root(),
            strerror(errno));
    return -1;
  }
  snprintf(ch->output, sizeof ch->output, "%s/part.jsonl", ch->dir);
  return 0;
}

int rigor_run_step_forward(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                           size_t errlen) {
  const rigor_step_channel_t *ch = arg;
  int rc = rigor_run_step_send(arg, job, rec, err, errlen);
  return !rc && ch->next ? ch->next(ch->next_arg, job, rec, err, errlen) : rc;
}

int rigor_run_step_send(void *arg, const rigor_job_t *job, const json_t *rec, char *err,
                        size_t errlen) {
  (void)job;
  const rigor_step_channel_t *ch = arg;
  size_t written;
  int rc = rigor_record_write_fd(ch->fd, rec, &written);
  if (rc == RIGOR_ENOMEM) snprintf(err, errlen, "cannot serialise a record");
  if (rc == RIGOR_EIO)
    snprintf(err, errlen, "the records no longer reach the campaign's driver: %s", strerror(errno));
  return rc;
}

void rigor_run_step_channel_close(rigor_step_channel_t *ch) {
  if (ch->fd >= 0) close(ch->fd);
  ch->fd = -1;
  if (ch->dir[0]) rigor_tree_remove(ch->dir);
  ch->dir[0] = '\0';
}

/* What the driver forwards to its steps: the file and the options that shape the runs. */
const char *const rigor_run_step_drops_value[] = {"-o", "--output", "--only", "--heartbeat", NULL};
const char *const rigor_run_step_drops_flag[] = {
    "--resume", "--force", "-q", "--quiet", "-v", "--verbose", "--dry-run", "--no-report", NULL};
/* What the submitter keeps from itself for the driver: all but the allocation's settings. */
static const char *const submit_drops_value[] = {"--nodes", "--partition", "--time", "--account",
                                                 NULL};
static const char *const submit_drops_flag[] = {"--slurm", NULL};

/* Inside the allocation: the nodes and their CPUs, for the runner's campaign. */
int rigor_run_campaign_of(rigor_campaign_t *c, json_t **nodes, unsigned **cpus, const char *self,
                          const char **step_args) {
  char err[512];
  const char *list = getenv("SLURM_JOB_NODELIST");
  *nodes = rigor_slurm_hostnames(list, err, sizeof err);
  if (!*nodes) {
    fprintf(stderr, "rigor run: %s (is this a Slurm batch job?)\n", err);
    return -1;
  }
  size_t n = json_array_size(*nodes);
  const char **names = calloc(n + 1, sizeof *names);
  *cpus = calloc(n + 1, sizeof **cpus);
  if (!names || !*cpus) return free(names), -1;
  for (size_t i = 0; i < n; i++)
    names[i] = json_string_value(json_array_get(*nodes, i));
  rigor_campaign_cpus(getenv("SLURM_JOB_CPUS_PER_NODE"), *cpus, n);
  *c = (rigor_campaign_t){
      .nodes = names, .n_nodes = n, .cpus = *cpus, .self = self, .step_args = step_args};
  fprintf(stderr, "rigor: Slurm job %s: %zu nodes (%s), one block at a time on each\n",
          getenv("SLURM_JOB_ID") ? getenv("SLURM_JOB_ID") : "?", n, list);
  return 0;
}

/* Outside the allocation: submits this very command, less its allocation settings, as the
 * driver of one batch job, and waits for it. Returns the job's exit code, or -1. */
int rigor_run_submit(const rigor_config_t *cfg, rigor_slurm_request_t *req, const char *self,
                     int argc, char **argv) {
  char scratch[3][64];
  rigor_slurm_request_defaults(req, cfg->executor, scratch);
  const char **rest = rigor_args_without(argc, argv, submit_drops_value, submit_drops_flag);
  size_t n = 0;
  while (rest && rest[n])
    n++;
  char **inner = calloc(n + 3, sizeof *inner);
  if (!rest || !inner) {
    free(rest), free(inner);
    fprintf(stderr, "rigor run: out of memory\n");
    return -1;
  }
  inner[0] = (char *)self;
  inner[1] = "__campaign";
  for (size_t i = 0; i < n; i++)
    inner[i + 2] = (char *)rest[i];
  char name[256], log[4200], err[1024];
  snprintf(name, sizeof name, "rigor-%s", cfg->experiments[0].name);
  snprintf(log, sizeof log, "%s.slurm-%%j.log", cfg->experiments[0].output);
  int code = rigor_slurm_run_job(req, name, log, inner, err, sizeof err);
  if (code < 0) fprintf(stderr, "rigor run: %s\n", err);
  free(rest), free(inner);
  return code;
}
