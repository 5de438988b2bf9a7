#include <stdio.h>

#include "cli.h"
#include "config_args.h"

static const char usage[] =
    "usage: rigor validate FILE [--only NAME] [--plugin-path DIR]... [--config-path DIR]...\n"
    "                           [--build LABEL=DIR]... [--allow-external-extends]\n"
    "\n"
    "Parses FILE, resolves extends, defaults and matrices, and checks every value against the\n"
    "plugins' schemas and the core's, without running anything. Exit status 0 or 2.\n";

int rigor_cmd_validate(int argc, char **argv) {
  rigor_config_args_t cli;
  int rc = rigor_config_args_parse(argc, argv, usage, false, &cli);
  if (rc >= 0) return rc;
  rigor_config_t *cfg = NULL;
  if ((rc = rigor_config_args_load(&cli, &cfg)) != RIGOR_EXIT_OK) return rc;
  uint64_t variants = 0, runs = 0;
  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    const rigor_experiment_t *e = &cfg->experiments[i];
    variants += e->n_variants;
    runs += (uint64_t)e->schedule.n_blocks * e->schedule.n_variants;
  }
  printf("%s: ok (%u experiment%s, %llu variants, %llu runs)\n", cli.file, cfg->n_experiments,
         cfg->n_experiments == 1 ? "" : "s", (unsigned long long)variants,
         (unsigned long long)runs);
  rigor_config_free(cfg);
  return RIGOR_EXIT_OK;
}
