#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "canonical.h"
#include "config_args.h"

static const char about[] =
    "Prints each experiment's canonical resolved form (sorted keys, defaults filled, sizes in\n"
    "bytes, durations in seconds, percentages as fractions) with its SHA-256, the experiment\n"
    "hash stored in results. --canonical prints exactly the hashed text, one line per\n"
    "experiment: the resolved form without its `description`, which the hash leaves out.\n"
    "--base-hash prints FILE's pin, what `extends: {file: FILE, sha256: ...}` compares: the\n"
    "SHA-256 of FILE read as a base (its own extends resolved; it need not be an experiment).\n";

static int print_config(const rigor_config_t *cfg, bool canonical, FILE *out) {
  json_t *all = json_array();
  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    const rigor_experiment_t *e = &cfg->experiments[i];
    if (canonical) {
      json_t *hashed = rigor_experiment_hashed_form(e->resolved);
      char *text = hashed ? rigor_canonical_dump(hashed) : NULL;
      fprintf(out, "%s\n", text ? text : "");
      free(text);
      json_decref(hashed);
      continue;
    }
    json_array_append_new(
        all, json_pack("{s:s, s:s, s:O}", "name", e->name, "hash", e->hash, "config", e->resolved));
  }
  if (!canonical) {
    char *text = json_dumps(all, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(15));
    fprintf(out, "%s\n", text ? text : "[]");
    free(text);
  }
  json_decref(all);
  return 0;
}

int rigor_cmd_config(int argc, char **argv) {
  rigor_config_args_t ca;
  bool canonical = false, base_hash = false;
  const char *out_path = NULL;
  rigor_option_t options[RIGOR_CONFIG_ARGS_N + 4] = {
      {"output", 'o', "OUT", "write to OUT instead of standard output", .value = &out_path},
      {"canonical", 0, NULL, "print exactly the hashed text, one line per experiment",
       .flag = &canonical},
      {"base-hash", 0, NULL, "print FILE's pin as a shared base (extends: {file, sha256})",
       .flag = &base_hash},
  };
  rigor_config_args_options(&ca, options + 3);
  const rigor_command_t cmd = {"config", "FILE [OPTION]...", about, options};
  rigor_strings_t files = {0};
  int code = rigor_args_parse(&cmd, argc, argv, &files);
  if (code < 0 && files.n != 1)
    code = files.n ? rigor_usage_error(&cmd, "takes one experiment file, not %zu", files.n)
                   : rigor_usage_error(&cmd, "no experiment file given");
  if (code < 0 && canonical && base_hash)
    code = rigor_usage_error(&cmd, "--canonical and --base-hash print different things; give one");
  if (code < 0) code = rigor_config_args_finish(&cmd, &ca);
  if (code >= 0) goto done;
  char hex[65];
  rigor_config_t *cfg = NULL;
  if (base_hash) {
    char err[4096];
    if (rigor_config_base_hash(files.v[0], &ca.opts, hex, err, sizeof err) != 0) {
      fprintf(stderr, "%s\n", err);
      code = RIGOR_EXIT_USAGE;
      goto done;
    }
  } else if ((code = rigor_config_args_load(&ca, files.v[0], &cfg)) != RIGOR_EXIT_OK) {
    goto done;
  }
  FILE *out = rigor_output_open(&cmd, out_path);
  code = out ? RIGOR_EXIT_OK : RIGOR_EXIT_CANNOT_WRITE;
  if (out) {
    if (base_hash)
      fprintf(out, "%s\n", hex);
    else
      print_config(cfg, canonical, out);
    if (rigor_output_close(&cmd, out_path, out)) code = RIGOR_EXIT_CANNOT_WRITE;
  }
  rigor_config_free(cfg);
done:
  rigor_strings_free(&files);
  rigor_config_args_free(&ca);
  return code;
}
