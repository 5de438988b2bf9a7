#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config_args.h"

static const char usage[] =
    "usage: rigor plan FILE [--only NAME] [-o OUT] [--plugin-path DIR]...\n"
    "                       [--config-path DIR]... [--build LABEL=DIR]...\n"
    "                       [--allow-external-extends]\n"
    "\n"
    "Prints each experiment's schedule block by block (position, variant, its settings) and\n"
    "the external commands it would execute, without running anything.\n";

static void print_axes(const json_t *axes) {
  const char *key;
  json_t *value;
  bool first = true;
  json_object_foreach((json_t *)axes, key, value) {
    char *text = json_is_string(value)
                     ? strdup(json_string_value(value))
                     : json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
    printf("%s%s=%s", first ? "" : "  ", key, text ? text : "?");
    first = false;
    free(text);
  }
}

static void print_experiment(const rigor_experiment_t *e) {
  const rigor_schedule_t *s = &e->schedule;
  const char *plugin = json_string_value(json_object_get(e->resolved, "plugin"));
  printf("experiment %s (%s)\n", e->name, e->source);
  if (e->order.precision > 0)
    printf("  plugin %s; %u variants x %u to %u blocks = %llu to %llu runs\n"
           "  replicates adaptive: min %u, max %u blocks, until every 95%% half-width is at most "
           "%g%%\n",
           plugin, s->n_variants, e->order.min_blocks, s->n_blocks,
           (unsigned long long)s->n_variants * e->order.min_blocks,
           (unsigned long long)s->n_variants * s->n_blocks, e->order.min_blocks, s->n_blocks,
           e->order.precision * 100);
  else
    printf("  plugin %s; %u variants x %u blocks = %llu runs\n", plugin, s->n_variants, s->n_blocks,
           (unsigned long long)s->n_variants * s->n_blocks);
  printf("  order %s, seed %llu%s", e->order.design->name, (unsigned long long)e->order.seed,
         e->order.randomize ? ", randomized" : "");
  if (s->square_rows)
    printf("; square of %u rows, %s", s->square_rows, s->incomplete ? "INCOMPLETE" : "complete");
  printf("\n  hash %s\n  output %s\n", e->hash, e->output);
  for (uint32_t v = 0; v < e->n_variants; v++) {
    const json_t *build = json_object_get(e->variants[v].settings, "build");
    bool first = build != NULL;
    for (uint32_t u = 0; u < v && first; u++)
      first = !json_equal(json_object_get(e->variants[u].settings, "build"), (json_t *)build);
    if (first)
      printf("  build %s: %s\n", json_string_value(json_object_get(build, "label")),
             json_string_value(json_object_get(build, "plugin_path")));
  }
  if (e->runs_commands) {
    printf("  commands (executed only under --allow-commands):\n");
    for (uint32_t v = 0; v < e->n_variants; v++)
      for (const char *line = e->variants[v].commands; line && *line;) {
        size_t len = strcspn(line, "\n");
        printf("    ! v%u %s: %.*s\n", v, e->variants[v].label, (int)len, line);
        line += len + (line[len] == '\n');
      }
  }
  for (uint32_t b = 0; b < s->n_blocks; b++) {
    printf("  block %u\n", b);
    for (uint32_t p = 0; p < s->n_variants; p++) {
      const rigor_variant_t *v = &e->variants[s->cells[(size_t)b * s->n_variants + p]];
      printf("    %s%3u  v%-3u %-30s  ", v->commands ? "!" : " ", p,
             s->cells[(size_t)b * s->n_variants + p], v->label);
      print_axes(v->axes);
      printf("\n");
    }
  }
}

int rigor_cmd_plan(int argc, char **argv) {
  rigor_config_args_t cli;
  int rc = rigor_config_args_parse(argc, argv, usage, false, &cli);
  if (rc >= 0) return rc;
  rigor_config_t *cfg = NULL;
  if ((rc = rigor_config_args_load(&cli, &cfg)) != RIGOR_EXIT_OK) return rc;
  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    if (i) printf("\n");
    print_experiment(&cfg->experiments[i]);
  }
  rigor_config_free(cfg);
  return RIGOR_EXIT_OK;
}
