#include <stdio.h>

#include "cli.h"
#include "config_args.h"

static const char about[] =
    "Parses each FILE, resolves extends, defaults and matrices, and checks every value against\n"
    "the plugins' schemas and the core's, without running anything. Every file is checked; the\n"
    "exit status is 2 when any of them is wrong, 0 otherwise.\n";

int rigor_cmd_validate(int argc, char **argv) {
  rigor_config_args_t ca;
  bool quiet = false;
  rigor_option_t options[RIGOR_CONFIG_ARGS_N + 2] = {
      {"quiet", 'q', NULL, "print nothing for a file that is valid", .flag = &quiet}};
  rigor_config_args_options(&ca, options + 1);
  const rigor_command_t cmd = {"validate", "FILE... [OPTION]...", about, options};
  rigor_strings_t files = {0};
  int code = rigor_args_parse(&cmd, argc, argv, &files);
  if (code < 0 && files.n == 0) code = rigor_usage_error(&cmd, "no experiment file given");
  if (code < 0) code = rigor_config_args_finish(&cmd, &ca);
  if (code >= 0) goto done;
  size_t bad = 0;
  for (size_t f = 0; f < files.n; f++) {
    rigor_config_t *cfg = NULL;
    if (rigor_config_args_load(&ca, files.v[f], &cfg) != RIGOR_EXIT_OK) {
      bad++;
      continue;
    }
    uint64_t variants = 0, runs = 0;
    for (uint32_t i = 0; i < cfg->n_experiments; i++) {
      const rigor_experiment_t *e = &cfg->experiments[i];
      variants += e->n_variants;
      runs += (uint64_t)e->schedule.n_blocks * e->schedule.n_variants;
    }
    if (!quiet)
      printf("%s: ok (%u experiment%s, %llu variant%s, %llu run%s)\n", files.v[f],
             cfg->n_experiments, cfg->n_experiments == 1 ? "" : "s", (unsigned long long)variants,
             variants == 1 ? "" : "s", (unsigned long long)runs, runs == 1 ? "" : "s");
    rigor_config_free(cfg);
  }
  if (bad && files.n > 1) {
    fflush(stdout);
    fprintf(stderr, "rigor validate: %zu of %zu files are not valid\n", bad, files.n);
  }
  code = bad ? RIGOR_EXIT_USAGE : RIGOR_EXIT_OK;
done:
  rigor_strings_free(&files);
  rigor_config_args_free(&ca);
  return code;
}
