#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adaptive.h"
#include "analysis.h"
#include "cli.h"
#include "run_memory.h"
#include "config_args.h"
#include "experiment.h"
#include "jobs.h"
#include "progress.h"
#include "run_slurm.h"
#include "runner.h"
#include "snapshot.h"

static const char about[] =
    "Runs every experiment of FILE, one fresh process per run, and appends their records to the\n"
    "results file (the file's `output`, or OUT). While runs go on, a terminal shows a progress\n"
    "line; anything else (a CI log) gets one line per finished run: k/N, the variant, its status,\n"
    "how long it took, the time so far and the time left, and while a run goes on a heartbeat\n"
    "line every --heartbeat seconds (run k/N, the variant, how long it has run, the cycles\n"
    "done, the time so far). At the end the report is printed.\n"
    "With --slurm the experiments run as one Slurm batch job: each block whole on one node of\n"
    "the allocation, as a job step, the nodes all at once, and every run's records reach the one\n"
    "results file; a job that died is finished by the same command with --resume.\n";

static void print_schedule(const rigor_experiment_t *e) {
  const rigor_schedule_t *s = &e->schedule;
  if (e->order.precision > 0)
    printf("experiment %s: %u %s x %u to %u blocks = %u to %u runs (%s, adaptive to %g%%)\n",
           e->name, s->n_variants, e->interleave.axis ? "cells" : "variants", e->order.min_blocks,
           s->n_blocks, s->n_variants * e->order.min_blocks, s->n_variants * s->n_blocks,
           e->order.design->name, e->order.precision * 100);
  else
    printf("experiment %s: %u %s x %u blocks = %u runs (%s)\n", e->name, s->n_variants,
           e->interleave.axis ? "cells" : "variants", s->n_blocks, s->n_variants * s->n_blocks,
           e->order.design->name);
  for (uint32_t b = 0; b < s->n_blocks; b++)
    for (uint32_t p = 0; p < s->n_variants; p++) {
      uint32_t v = s->cells[b * s->n_variants + p];
      if (e->interleave.axis) {
        /* The run hosts every arm of cell v. */
        printf("  run %u  block %u  position %u  cell %u:", b * s->n_variants + p, b, p, v);
        for (uint32_t a = 0; a < e->interleave.n_arms; a++)
          printf(" %s%s", a ? "| " : "",
                 e->variants[e->interleave.arms[(size_t)v * e->interleave.n_arms + a]].label);
        printf("\n");
        continue;
      }
      printf("  run %u  block %u  position %u  %s\n", b * s->n_variants + p, b, p,
             e->variants[v].label);
    }
}

/* The exit code of DESIGN.md's table for what the runner returned. */
static int exit_code(int rc, const rigor_tally_t *t) {
  if (t->signal) return 128 + t->signal;
  if (rc == RIGOR_ECONFIG) return RIGOR_EXIT_USAGE;
  if (rc < 0) return RIGOR_EXIT_RUN_FAILED;
  if (t->failed) return RIGOR_EXIT_RUN_FAILED;
  if (t->invalid) return RIGOR_EXIT_CHECK_FAILED;
  if (t->ran > 0 && t->skipped == t->ran) return RIGOR_EXIT_ALL_SKIPPED;
  return RIGOR_EXIT_OK;
}

/* Each distinct results file once: its report, and its rows against gate.expect. Returns how many
 * rows fell below their expectation. */
/* Each distinct results file read once: its report, and its rows against gate.expect. A file
 * that cannot be read, or a report that cannot be written, makes *code a failure. Returns the
 * rows below expectation. */
static size_t report_outputs(const rigor_config_t *cfg, bool report, int *code) {
  size_t below = 0;
  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    bool seen = false;
    for (uint32_t j = 0; j < i; j++)
      seen = seen || !strcmp(cfg->experiments[j].output, cfg->experiments[i].output);
    if (seen || access(cfg->experiments[i].output, R_OK) != 0) continue;
    const char *path = cfg->experiments[i].output;
    rigor_analysis_t *a = NULL;
    char aerr[1024];
    fflush(stderr);
    if (rigor_analysis_load(&path, 1, &a, aerr, sizeof aerr) != 0) {
      fprintf(stderr, "rigor: %s\n", aerr);
      if (*code == RIGOR_EXIT_OK) *code = RIGOR_EXIT_RUN_FAILED;
      continue;
    }
    if (report && rigor_report_print(a) != 0 && *code == RIGOR_EXIT_OK)
      *code = RIGOR_EXIT_RUN_FAILED;
    below += rigor_expectations_missed(a);
    rigor_analysis_free(a);
  }
  return below;
}

int rigor_cmd_run(int argc, char **argv) {
  /* rigor's own entry points inside an allocation: the campaign's driver (`__campaign`, the
   * submitted `rigor run`) and its job steps (`__step RUNS`). */
  bool driver = strcmp(argv[0], "__campaign") == 0, step = strcmp(argv[0], "__step") == 0;
  uint32_t *only_runs = NULL;
  size_t n_only_runs = 0;
  double step_left_s = 0;
  rigor_step_channel_t channel = {.fd = -1};
  if (step) {
    if (argc < 2 || rigor_run_parse_runs(argv[1], &only_runs, &n_only_runs, &step_left_s) != 0) {
      fprintf(stderr,
              "rigor __step: expected RUNS (k,k,...[@SECONDS]) then rigor run's arguments\n");
      free(only_runs);
      return RIGOR_EXIT_USAGE;
    }
    if (rigor_run_step_channel_open(&channel) != 0) {
      rigor_run_step_channel_close(&channel);
      free(only_runs);
      return RIGOR_EXIT_RUN_FAILED;
    }
    argc--, argv++;
  }
  rigor_slurm_request_t req = {0};
  bool slurm = false;
  rigor_config_args_t ca;
  rigor_run_opts_t ropts = {0};
  rigor_progress_view_t view = {0};
  const char *output = NULL, *heartbeat = NULL;
  bool dry_run = false, no_report = false;
  rigor_option_t options[RIGOR_CONFIG_ARGS_N + 17] = {
      {"output", 'o', "OUT", "write results to OUT instead of the file's `output`",
       .value = &output},
      {"resume", 0, NULL, "finish an interrupted results file (the experiment hash must match)",
       .flag = &ropts.resume},
      {"allow-rebuilt", 0, NULL,
       "with --resume, go on with a plugin rebuilt since the file began (recorded in its runs)",
       .flag = &ropts.allow_rebuilt},
      {"force", 0, NULL, "replace an existing results file", .flag = &ropts.force},
      {"dry-run", 0, NULL, "print the schedule and stop", .flag = &dry_run},
      {"allow-commands", 0, NULL, "let the file execute the external commands `rigor plan` shows",
       .flag = &ropts.allow_commands},
      {"quiet", 'q', NULL, "no progress, no per-run lines, no report (the exit status tells)",
       .flag = &view.quiet},
      {"verbose", 'v', NULL, "a line as each run starts and ends, on a terminal too",
       .flag = &view.verbose},
      {"no-report", 0, NULL, "do not print the report at the end", .flag = &no_report},
      {"heartbeat", 0, "SECONDS",
       "without a terminal, a line every SECONDS while a run goes on (default 10; 0: none)",
       .value = &heartbeat},
      {"slurm", 0, NULL,
       "run as one Slurm batch job, each block a job step on one node (docs/cluster.md)",
       .flag = &slurm},
      {"nodes", 0, "N|LIST", "with --slurm: the allocation's nodes, a count or a node list",
       .value = &req.nodes},
      {"partition", 0, "P", "with --slurm: the partition", .value = &req.partition},
      {"time", 0, "T", "with --slurm: the job's time limit, in Slurm's syntax (minutes, H:MM:SS)",
       .value = &req.time},
      {"account", 0, "A", "with --slurm: the account charged", .value = &req.account},
  };
  rigor_config_args_options(&ca, options + 15);
  const rigor_command_t cmd = {"run", "FILE [OPTION]...", about, options};
  rigor_strings_t files = {0};
  rigor_config_t *cfg = NULL;
  rigor_jobs_t jobs;
  const char **protected_paths = NULL;
  int code = rigor_args_parse(&cmd, argc, argv, &files);
  if (code < 0 && files.n != 1)
    code = files.n ? rigor_usage_error(&cmd,
                                       "runs one experiment file, not %zu (run them one by "
                                       "one, or list their experiments in one file)",
                                       files.n)
                   : rigor_usage_error(&cmd, "no experiment file given");
  if (code < 0 && ropts.resume && ropts.force)
    code = rigor_usage_error(&cmd, "--resume and --force contradict each other");
  if (code < 0 && ropts.allow_rebuilt && !ropts.resume)
    code = rigor_usage_error(&cmd, "--allow-rebuilt only applies with --resume");
  if (code < 0 && !slurm && (req.nodes || req.partition || req.time || req.account))
    code = rigor_usage_error(&cmd, "--nodes, --partition, --time and --account apply with --slurm");
  if (code < 0 && slurm && (driver || step))
    code = rigor_usage_error(&cmd, "--slurm is already in effect here");
  if (code < 0 && view.quiet && view.verbose)
    code = rigor_usage_error(&cmd, "--quiet and --verbose contradict each other");
  double heartbeat_s = 10;
  if (code < 0 && heartbeat) {
    char *end = NULL;
    heartbeat_s = strtod(heartbeat, &end);
    if (end == heartbeat || *end || !(heartbeat_s >= 0) || heartbeat_s > 86400)
      code = rigor_usage_error(&cmd, "--heartbeat takes seconds from 0 (none) to 86400, not '%s'",
                               heartbeat);
  }
  if (code >= 0) goto out_args;
  code = RIGOR_EXIT_USAGE;
  if (rigor_config_args_finish(&cmd, &ca) >= 0) goto out_args;
  /* A step writes its own results file on its node; its records reach the driver's. */
  ca.opts.output_override = step ? channel.output : output;
  ropts.search = ca.opts.search;
  /* From here on every plugin is mapped from a private copy taken now (snapshot.h). */
  char serr[1024];
  if (rigor_snapshot_open(serr, sizeof serr) < 0) {
    fprintf(stderr, "rigor run: %s\n", serr);
    code = RIGOR_EXIT_RUN_FAILED;
    goto out_args;
  }
  if (rigor_config_args_load(&ca, files.v[0], &cfg) != RIGOR_EXIT_OK) goto out_snapshot;
  if (dry_run) {
    for (uint32_t i = 0; i < cfg->n_experiments; i++)
      print_schedule(&cfg->experiments[i]);
    code = RIGOR_EXIT_OK;
    goto out_config;
  }

  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    char why[512];
    if (!rigor_run_memory_fits(&cfg->experiments[i], why, sizeof why)) {
      fprintf(stderr, "rigor run: %s\n", why);
      code = RIGOR_EXIT_USAGE;
      goto out_config;
    }
  }

  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  if (slurm) {
    /* What the driver would refuse is refused before anything is submitted: commands the
     * user did not allow, and a file rigor would not touch. */
    for (uint32_t i = 0; i < cfg->n_experiments && !ropts.allow_commands; i++)
      if (cfg->experiments[i].runs_commands) {
        fprintf(stderr,
                "rigor run: experiment '%s' would execute external commands (see `rigor plan`); "
                "nothing was submitted: rerun with --allow-commands to permit them\n",
                cfg->experiments[i].name);
        code = RIGOR_EXIT_USAGE;
        goto out_config;
      }
    for (uint32_t i = 0; i < cfg->n_experiments && !ropts.resume && !ropts.force; i++)
      if (access(cfg->experiments[i].output, F_OK) == 0) {
        fprintf(stderr,
                "rigor run: %s already exists; rigor never overwrites results: use --resume to "
                "finish it, --force to replace it, or -o for another file\n",
                cfg->experiments[i].output);
        code = RIGOR_EXIT_USAGE;
        goto out_config;
      }
    int job = rigor_run_submit(cfg, &req, self, argc, argv);
    code = job < 0 ? RIGOR_EXIT_RUN_FAILED : job;
    if (job >= 0 && job != RIGOR_EXIT_USAGE) {
      int read_code = RIGOR_EXIT_OK;
      size_t below = report_outputs(cfg, !no_report && !view.quiet, &read_code);
      if (read_code != RIGOR_EXIT_OK && code == RIGOR_EXIT_OK) code = read_code;
      if (below && code == RIGOR_EXIT_OK) code = RIGOR_EXIT_CHECK_FAILED;
    }
    goto out_config;
  }
  rigor_campaign_t campaign = {0};
  json_t *campaign_nodes = NULL;
  unsigned *campaign_cpus = NULL;
  const char **step_args = NULL;
  if (driver) {
    step_args =
        rigor_args_without(argc, argv, rigor_run_step_drops_value, rigor_run_step_drops_flag);
    if (!step_args ||
        rigor_run_campaign_of(&campaign, &campaign_nodes, &campaign_cpus, self, step_args)) {
      code = RIGOR_EXIT_RUN_FAILED;
      goto out_campaign;
    }
    ropts.campaign = &campaign;
    no_report = true; /* the submitting rigor prints it */
  }
  ropts.only_runs = only_runs;
  ropts.n_only_runs = n_only_runs;
  ropts.deadline_left_s = step_left_s;
  ropts.self_exe = self;
  ropts.rigor_version = RIGOR_VERSION;
  ropts.rigor_git = RIGOR_GIT_HASH;
  view.line = !view.quiet && !view.verbose && isatty(STDERR_FILENO);
  /* A terminal's line is redrawn as cycles finish; a log gets a heartbeat at the interval. */
  ropts.heartbeat_s = view.quiet ? 0 : view.line && heartbeat_s > 0 ? 1 : heartbeat_s;
  ropts.progress = rigor_progress_draw;
  ropts.progress_arg = &view;
  rigor_adaptive_t adaptive = {.quiet = view.quiet, .resume = ropts.resume};
  ropts.on_record = rigor_adaptive_on_record;
  ropts.on_record_arg = &adaptive;
  ropts.after_block = rigor_adaptive_after_block;
  ropts.after_block_arg = &adaptive;
  if (step) {
    /* Each record goes to the driver, then to the adaptive rule as here. */
    channel.next = ropts.on_record;
    channel.next_arg = ropts.on_record_arg;
    ropts.on_record = rigor_run_step_forward;
    ropts.on_record_arg = &channel;
    ropts.on_telemetry = rigor_run_step_send;
    ropts.on_telemetry_arg = &channel;
    /* A campaign's driver judges the experiment as blocks end; its steps only run their runs.
     * A step of every run (a screen's node) judges itself. */
    if (only_runs) ropts.after_block = NULL;
  }
  code = RIGOR_EXIT_RUN_FAILED;
  if (rigor_jobs_build(cfg, &jobs) != 0) {
    fprintf(stderr, "rigor run: out of memory\n");
    goto out_config;
  }
  size_t n_sources = json_array_size(cfg->sources);
  protected_paths = calloc(n_sources + 1, sizeof *protected_paths);
  if (!protected_paths) {
    fprintf(stderr, "rigor run: out of memory\n");
    goto out_jobs;
  }
  for (size_t i = 0; i < n_sources; i++)
    protected_paths[i] = json_string_value(json_array_get(cfg->sources, i));
  ropts.protected_paths = protected_paths;

  rigor_tally_t tally;
  char rerr[4096];
  int rc = rigor_runner_execute(jobs.jobs, jobs.n, &ropts, &tally, rerr, sizeof rerr);
  rigor_adaptive_free(&adaptive);
  if (view.line) fprintf(stderr, "\r\033[K");
  if (rc < 0) fprintf(stderr, "rigor: %s\n", rerr);
  if (tally.signal)
    fprintf(stderr,
            "rigor: stopped by %s; the results file holds every finished run (use --resume to "
            "finish)\n",
            strsignal(tally.signal));
  code = exit_code(rc, &tally);
  size_t below = code != RIGOR_EXIT_USAGE && code < 128
                     ? report_outputs(cfg, !no_report && !view.quiet, &code)
                     : 0;
  if (below) {
    fflush(stdout);
    fprintf(stderr, "rigor: %zu row%s below expectation (gate.expect; see the report)\n", below,
            below == 1 ? "" : "s");
    if (code == RIGOR_EXIT_OK) code = RIGOR_EXIT_CHECK_FAILED;
  }
  free(protected_paths);
out_jobs:
  rigor_jobs_free(&jobs);
out_campaign:
  if (driver && campaign_nodes) free((void *)campaign.nodes);
  json_decref(campaign_nodes);
  free(campaign_cpus);
  free(step_args);
out_config:
  rigor_config_free(cfg);
out_snapshot:
  rigor_snapshot_close();
out_args:
  if (step) rigor_run_step_channel_close(&channel);
  rigor_strings_free(&files);
  rigor_config_args_free(&ca);
  free(only_runs);
  return code;
}
