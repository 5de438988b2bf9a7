#include "config_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "environment.h"

void rigor_config_args_options(rigor_config_args_t *a, rigor_option_t *out) {
  memset(a, 0, sizeof *a);
  const rigor_option_t shared[RIGOR_CONFIG_ARGS_N] = {
      {"only", 0, "NAME", "only the experiment called NAME", .value = &a->opts.only},
      {"plugin-path", 0, "DIR", "search DIR for plugins first (repeatable; the first found wins)",
       .list = &a->dirs},
      {"config-path", 0, "DIR", "a trusted folder of shared bases `extends:` may name (repeatable)",
       .list = &a->config_dirs},
      {"build", 0, "LABEL=DIR",
       "a build axis level: plugins in DIR (repeatable; replaces the file's axis; two or more "
       "run as arms in every run unless the order names interleave)",
       .list = &a->build_args},
      {"allow-external-extends", 0, NULL, "accept `extends:` that leave the config's folder",
       .flag = &a->opts.allow_external_extends},
      {"allow-unsafe-plugin-path", 0, NULL, "accept world-writable plugin folders",
       .flag = &a->opts.search.allow_unsafe},
  };
  memcpy(out, shared, sizeof shared);
}

int rigor_config_args_finish(const rigor_command_t *cmd, rigor_config_args_t *a) {
  static const char *const none[] = {NULL};
  a->opts.search.extra_dirs = a->dirs.v ? a->dirs.v : none;
  a->opts.config_dirs = a->config_dirs.v ? a->config_dirs.v : none;
  a->opts.check_machine = rigor_environment_check;
  size_t n = a->build_args.n;
  if (n == 0) return -1;
  a->builds = calloc(n, sizeof *a->builds);
  a->build_labels = calloc(n, sizeof *a->build_labels);
  if (!a->builds || !a->build_labels) return rigor_usage_error(cmd, "out of memory");
  for (size_t i = 0; i < n; i++) {
    const char *arg = a->build_args.v[i], *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
      return rigor_usage_error(
          cmd, "--build takes LABEL=DIR (a label and a plugin folder), not '%s'", arg);
    if (!(a->build_labels[i] = strndup(arg, (size_t)(eq - arg))))
      return rigor_usage_error(cmd, "out of memory");
    a->builds[i] = (rigor_build_opt_t){.label = a->build_labels[i], .dir = eq + 1};
  }
  a->opts.builds = a->builds;
  a->opts.n_builds = n;
  return -1;
}

void rigor_config_args_free(rigor_config_args_t *a) {
  for (size_t i = 0; a->build_labels && i < a->build_args.n; i++)
    free(a->build_labels[i]);
  free(a->build_labels);
  free(a->builds);
  rigor_strings_free(&a->dirs);
  rigor_strings_free(&a->config_dirs);
  rigor_strings_free(&a->build_args);
}

int rigor_config_args_load(const rigor_config_args_t *a, const char *file, rigor_config_t **cfg) {
  char err[4096];
  if (rigor_config_load(file, &a->opts, cfg, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return RIGOR_EXIT_USAGE;
  }
  size_t i;
  json_t *w;
  json_array_foreach((*cfg)->warnings, i, w) {
    fprintf(stderr, "rigor: warning: %s\n", json_string_value(w));
  }
  return RIGOR_EXIT_OK;
}
