#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "canonical.h"
#include "config_args.h"

static const char usage[] =
    "usage: rigor config FILE [--only NAME] [--canonical] [--base-hash] [--plugin-path DIR]...\n"
    "                         [--config-path DIR]... [--build LABEL=DIR]...\n"
    "                         [--allow-external-extends]\n"
    "\n"
    "Prints each experiment's canonical resolved form (sorted keys, defaults filled, sizes in\n"
    "bytes, durations in seconds, percentages as fractions) with its SHA-256, the experiment\n"
    "hash stored in results. --canonical prints exactly the hashed text, one line per\n"
    "experiment: the resolved form without its `description`, which the hash leaves out.\n"
    "--base-hash prints FILE's pin, what `extends: {file: FILE, sha256: ...}` compares: the\n"
    "SHA-256 of FILE read as a base (its own extends resolved; it need not be an experiment).\n";

static int print_base_hash(const rigor_config_args_t *cli) {
  char hex[65], err[4096];
  if (rigor_config_base_hash(cli->file, &cli->opts, hex, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return RIGOR_EXIT_USAGE;
  }
  printf("%s\n", hex);
  return RIGOR_EXIT_OK;
}

int rigor_cmd_config(int argc, char **argv) {
  rigor_config_args_t cli;
  int rc = rigor_config_args_parse(argc, argv, usage, true, &cli);
  if (rc >= 0) return rc;
  if (cli.base_hash) return print_base_hash(&cli);
  rigor_config_t *cfg = NULL;
  if ((rc = rigor_config_args_load(&cli, &cfg)) != RIGOR_EXIT_OK) return rc;
  json_t *all = json_array();
  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    const rigor_experiment_t *e = &cfg->experiments[i];
    if (cli.canonical) {
      json_t *hashed = rigor_experiment_hashed_form(e->resolved);
      char *text = hashed ? rigor_canonical_dump(hashed) : NULL;
      printf("%s\n", text ? text : "");
      free(text);
      json_decref(hashed);
      continue;
    }
    json_array_append_new(
        all, json_pack("{s:s, s:s, s:O}", "name", e->name, "hash", e->hash, "config", e->resolved));
  }
  if (!cli.canonical) {
    char *text = json_dumps(all, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(15));
    printf("%s\n", text ? text : "[]");
    free(text);
  }
  json_decref(all);
  rigor_config_free(cfg);
  return RIGOR_EXIT_OK;
}
