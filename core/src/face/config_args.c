#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "config_args.h"
#include "environment.h"

int rigor_build_arg(const char *cmd, char *arg, rigor_build_opt_t *builds, size_t *n) {
  char *eq = strchr(arg, '=');
  if (!eq || eq == arg || !eq[1]) {
    fprintf(stderr, "rigor %s: --build takes LABEL=DIR (a label and a plugin folder), not '%s'\n",
            cmd, arg);
    return RIGOR_EXIT_USAGE;
  }
  if (*n == RIGOR_MAX_BUILDS) {
    fprintf(stderr, "rigor %s: more than %d --build options\n", cmd, RIGOR_MAX_BUILDS);
    return RIGOR_EXIT_USAGE;
  }
  *eq = '\0';
  builds[(*n)++] = (rigor_build_opt_t){.label = arg, .dir = eq + 1};
  return 0;
}

int rigor_config_args_parse(int argc, char **argv, const char *usage, bool accepts_canonical,
                            rigor_config_args_t *cli) {
  size_t nd = 0, nc = 0;
  memset(cli, 0, sizeof *cli);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has_value = i + 1 < argc;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      return RIGOR_EXIT_OK;
    } else if (!strcmp(a, "-o") && has_value) {
      cli->opts.output_override = argv[++i];
    } else if (!strcmp(a, "--only") && has_value) {
      cli->opts.only = argv[++i];
    } else if (!strcmp(a, "--plugin-path") && has_value && nd < RIGOR_MAX_PLUGIN_DIRS) {
      cli->dirs[nd++] = argv[++i];
    } else if (!strcmp(a, "--config-path") && has_value && nc < RIGOR_MAX_CONFIG_DIRS) {
      cli->config_dirs[nc++] = argv[++i];
    } else if (!strcmp(a, "--build") && has_value) {
      if (rigor_build_arg(argv[0], argv[++i], cli->builds, &cli->opts.n_builds))
        return RIGOR_EXIT_USAGE;
    } else if (!strcmp(a, "--allow-external-extends")) {
      cli->opts.allow_external_extends = true;
    } else if (!strcmp(a, "--allow-unsafe-plugin-path")) {
      cli->opts.search.allow_unsafe = true;
    } else if (accepts_canonical && !strcmp(a, "--canonical")) {
      cli->canonical = true;
    } else if (accepts_canonical && !strcmp(a, "--base-hash")) {
      cli->base_hash = true;
    } else if (a[0] == '-' || cli->file) {
      fprintf(stderr, "rigor %s: unexpected argument '%s'\n%s", argv[0], a, usage);
      return RIGOR_EXIT_USAGE;
    } else {
      cli->file = a;
    }
  }
  if (!cli->file) {
    fprintf(stderr, "rigor %s: missing FILE\n%s", argv[0], usage);
    return RIGOR_EXIT_USAGE;
  }
  cli->opts.search.extra_dirs = cli->dirs;
  cli->opts.config_dirs = cli->config_dirs;
  cli->opts.builds = cli->builds;
  cli->opts.check_machine = rigor_environment_check;
  return -1;
}

int rigor_config_args_load(rigor_config_args_t *cli, rigor_config_t **cfg) {
  char err[4096];
  if (rigor_config_load(cli->file, &cli->opts, cfg, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return RIGOR_EXIT_USAGE;
  }
  size_t i;
  json_t *w;
  json_array_foreach((*cfg)->warnings, i, w) fprintf(stderr, "warning: %s\n", json_string_value(w));
  return RIGOR_EXIT_OK;
}
