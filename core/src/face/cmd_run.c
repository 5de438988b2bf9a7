#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adaptive.h"
#include "analysis.h"
#include "cli.h"
#include "config_args.h"
#include "environment.h"
#include "experiment.h"
#include "jobs.h"
#include "progress.h"
#include "runner.h"

static void run_usage(FILE *f) {
  fprintf(
      f, "usage: rigor run FILE [-o OUT] [--resume] [--force] [--only NAME] [--dry-run]\n"
         "                 [--plugin-path DIR]... [--build LABEL=DIR]... [--allow-commands]\n"
         "                 [--allow-unsafe-plugin-path] [--config-path DIR]...\n"
         "                 [--allow-external-extends] [--quiet] [--no-report]\n"
         "\n"
         "  -o OUT            write results to OUT instead of the file's `output`\n"
         "  --resume          finish an interrupted results file (the experiment hash must match)\n"
         "  --force           replace an existing results file\n"
         "  --only NAME       run one experiment of the file\n"
         "  --dry-run         print the schedule and stop\n"
         "  --plugin-path DIR search DIR for plugins first\n"
         "  --config-path DIR a trusted folder of shared bases that `extends:` may name\n"
         "  --build LABEL=DIR one level of the build axis: the plugin as DIR holds it (repeat\n"
         "                    for each build; replaces the file's `build` axis)\n"
         "  --allow-commands  let the config execute the external commands `rigor plan` shows\n"
         "  --quiet           no progress line, no report\n"
         "  --no-report       do not print the report table at the end\n");
}

static void print_schedule(const rigor_experiment_t *e) {
  const rigor_schedule_t *s = &e->schedule;
  if (e->order.precision > 0)
    printf("experiment %s: %u variants x %u to %u blocks = %u to %u runs (%s, adaptive to %g%%)\n",
           e->name, s->n_variants, e->order.min_blocks, s->n_blocks,
           s->n_variants * e->order.min_blocks, s->n_variants * s->n_blocks, e->order.design->name,
           e->order.precision * 100);
  else
    printf("experiment %s: %u variants x %u blocks = %u runs (%s)\n", e->name, s->n_variants,
           s->n_blocks, s->n_variants * s->n_blocks, e->order.design->name);
  for (uint32_t b = 0; b < s->n_blocks; b++)
    for (uint32_t p = 0; p < s->n_variants; p++) {
      uint32_t v = s->cells[b * s->n_variants + p];
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

int rigor_cmd_run(int argc, char **argv) {
  const char *file = NULL;
  const char *dirs[65] = {0}, *config_dirs[65] = {0};
  int nd = 0, nc = 0;
  rigor_build_opt_t builds[RIGOR_MAX_BUILDS];
  rigor_config_opts_t copts = {0};
  rigor_run_opts_t ropts = {0};
  rigor_progress_view_t view = {0};
  bool dry_run = false, report = true;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      run_usage(stdout);
      return RIGOR_EXIT_OK;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      copts.output_override = argv[++i];
    } else if (!strcmp(a, "--only") && i + 1 < argc) {
      copts.only = argv[++i];
    } else if (!strcmp(a, "--plugin-path") && i + 1 < argc && nd < 64) {
      dirs[nd++] = argv[++i];
    } else if (!strcmp(a, "--config-path") && i + 1 < argc && nc < 64) {
      config_dirs[nc++] = argv[++i];
    } else if (!strcmp(a, "--build") && i + 1 < argc) {
      if (rigor_build_arg("run", argv[++i], builds, &copts.n_builds)) return RIGOR_EXIT_USAGE;
    } else if (!strcmp(a, "--resume")) {
      ropts.resume = true;
    } else if (!strcmp(a, "--force")) {
      ropts.force = true;
    } else if (!strcmp(a, "--dry-run")) {
      dry_run = true;
    } else if (!strcmp(a, "--allow-commands")) {
      ropts.allow_commands = true;
    } else if (!strcmp(a, "--allow-unsafe-plugin-path")) {
      ropts.search.allow_unsafe = true;
    } else if (!strcmp(a, "--allow-external-extends")) {
      copts.allow_external_extends = true;
    } else if (!strcmp(a, "--quiet")) {
      view.quiet = true;
      report = false;
    } else if (!strcmp(a, "--no-report")) {
      report = false;
    } else if (a[0] == '-' || file) {
      fprintf(stderr, "rigor run: unexpected argument '%s'\n", a);
      run_usage(stderr);
      return RIGOR_EXIT_USAGE;
    } else {
      file = a;
    }
  }
  if (!file) {
    run_usage(stderr);
    return RIGOR_EXIT_USAGE;
  }
  if (ropts.resume && ropts.force) {
    fprintf(stderr, "rigor run: --resume and --force contradict each other\n");
    return RIGOR_EXIT_USAGE;
  }
  ropts.search.extra_dirs = dirs;
  copts.search = ropts.search;
  copts.config_dirs = config_dirs;
  copts.builds = builds;
  copts.check_machine = rigor_environment_check;
  rigor_config_t *cfg = NULL;
  char err[4096];
  if (rigor_config_load(file, &copts, &cfg, err, sizeof err) < 0) {
    fprintf(stderr, "%s\n", err);
    return RIGOR_EXIT_USAGE;
  }
  size_t nw = json_array_size(cfg->warnings);
  for (size_t i = 0; i < nw; i++)
    fprintf(stderr, "rigor: warning: %s\n", json_string_value(json_array_get(cfg->warnings, i)));
  if (dry_run) {
    for (uint32_t i = 0; i < cfg->n_experiments; i++)
      print_schedule(&cfg->experiments[i]);
    rigor_config_free(cfg);
    return RIGOR_EXIT_OK;
  }
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  ropts.self_exe = self;
  ropts.rigor_version = RIGOR_VERSION;
  ropts.rigor_git = RIGOR_GIT_HASH;
  view.line = !view.quiet && isatty(STDERR_FILENO);
  ropts.progress = rigor_progress_draw;
  ropts.progress_arg = &view;
  rigor_adaptive_t adaptive = {.quiet = view.quiet};
  ropts.after_block = rigor_adaptive_after_block;
  ropts.after_block_arg = &adaptive;
  rigor_jobs_t jobs;
  if (rigor_jobs_build(cfg, &jobs) != 0) {
    fprintf(stderr, "rigor run: out of memory\n");
    rigor_config_free(cfg);
    return RIGOR_EXIT_RUN_FAILED;
  }
  size_t n_sources = json_array_size(cfg->sources);
  const char **protected_paths = calloc(n_sources + 1, sizeof *protected_paths);
  for (size_t i = 0; protected_paths && i < n_sources; i++)
    protected_paths[i] = json_string_value(json_array_get(cfg->sources, i));
  ropts.protected_paths = protected_paths;
  rigor_tally_t tally;
  char rerr[4096];
  int rc = rigor_runner_execute(jobs.jobs, jobs.n, &ropts, &tally, rerr, sizeof rerr);
  rigor_jobs_free(&jobs);
  free(protected_paths);
  if (view.line) fprintf(stderr, "\r\033[K");
  if (rc < 0) fprintf(stderr, "rigor: %s\n", rerr);
  if (tally.signal)
    fprintf(stderr,
            "rigor: stopped by %s; the results file holds every finished run (use --resume to "
            "finish)\n",
            strsignal(tally.signal));
  int code = exit_code(rc, &tally);
  size_t below = 0;
  if (code != RIGOR_EXIT_USAGE && code < 128) {
    /* Each distinct results file once: its report, and its rows against gate.expect. */
    for (uint32_t i = 0; i < cfg->n_experiments; i++) {
      bool seen = false;
      for (uint32_t j = 0; j < i; j++)
        seen = seen || !strcmp(cfg->experiments[j].output, cfg->experiments[i].output);
      if (seen || access(cfg->experiments[i].output, R_OK) != 0) continue;
      if (report) {
        char *rargv[] = {"report", cfg->experiments[i].output, NULL};
        fflush(stderr);
        rigor_cmd_report(2, rargv);
      }
      const char *path = cfg->experiments[i].output;
      rigor_analysis_t *a = NULL;
      char aerr[1024];
      if (rigor_analysis_load(&path, 1, &a, aerr, sizeof aerr) == 0)
        below += rigor_expectations_missed(a);
      rigor_analysis_free(a);
    }
  }
  if (below) {
    fflush(stdout);
    fprintf(stderr, "rigor: %zu row%s below expectation (gate.expect; see the report)\n", below,
            below == 1 ? "" : "s");
    if (code == RIGOR_EXIT_OK) code = RIGOR_EXIT_CHECK_FAILED;
  }
  rigor_config_free(cfg);
  return code;
}
