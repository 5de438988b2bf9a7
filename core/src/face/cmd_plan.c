#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_memory.h"
#include "term_text.h"
#include "config_args.h"
#include "plan_estimate.h"

static const char about[] =
    "Prints each experiment's schedule block by block (position, variant, its settings) and\n"
    "the external commands it would execute, without running anything, and how long it is\n"
    "expected to take: from the past runs of the experiment in its results file when it holds\n"
    "some, else the bounds its timing settings set. Several files are planned one after\n"
    "another.\n";

static void print_axes(FILE *out, const json_t *axes) {
  const char *key;
  json_t *value;
  bool first = true;
  json_object_foreach((json_t *)axes, key, value) {
    char *text = json_is_string(value)
                     ? strdup(json_string_value(value))
                     : json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
    fprintf(out, "%s%s=%s", first ? "" : "  ", key, text ? text : "?");
    first = false;
    free(text);
  }
}

/* The level of the interleaved axis that variant v takes, as its label reads. */
static void print_level(FILE *out, const rigor_experiment_t *e, uint32_t v) {
  const json_t *level = json_object_get(e->variants[v].axes, e->interleave.axis);
  char *text = json_is_string(level)
                   ? strdup(json_string_value(level))
                   : json_dumps(level, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
  fprintf(out, "%s", text ? text : "?");
  free(text);
}

/* The arms' order in the first cycles of a run of block b: "AB BA" for two arms. */
static void print_cycles(FILE *out, const rigor_experiment_t *e, uint32_t cell, uint32_t b) {
  const rigor_interleave_t *il = &e->interleave;
  uint32_t shown = il->square_rows < 4 ? 2 * il->square_rows : il->square_rows;
  for (uint32_t c = 0; c < shown; c++) {
    const uint32_t *row =
        il->square + (size_t)((c + il->offsets[b]) % il->square_rows) * il->n_arms;
    fprintf(out, "%s", c ? " | " : "");
    for (uint32_t slot = 0; slot < il->n_arms; slot++) {
      fprintf(out, "%s", slot ? " " : "");
      print_level(out, e, il->arms[(size_t)cell * il->n_arms + row[slot]]);
    }
  }
  fprintf(out, " | ...");
}

static void print_interleave(FILE *out, const rigor_experiment_t *e) {
  const rigor_interleave_t *il = &e->interleave;
  fprintf(out, "  interleave %s: %u arms in every run (", il->axis, il->n_arms);
  for (uint32_t a = 0; a < il->n_arms; a++) {
    fprintf(out, "%s", a ? ", " : "");
    print_level(out, e, il->arms[a]);
  }
  fprintf(out, "), each a plugin instance of its own\n");
  if (il->n_arms == 2)
    fprintf(out, "  inside a cycle: every arm measures each point once, ABBA/BAAB: cycles "
                 "alternate which arm goes first, and so do the blocks' runs\n");
  else
    fprintf(out,
            "  inside a cycle: every arm measures each point once, cycle c in the order of "
            "row (c + the block's offset) of a %u-row Williams square\n",
            il->square_rows);
}

static void print_experiment(FILE *out, const rigor_experiment_t *e) {
  const rigor_schedule_t *s = &e->schedule;
  const char *plugin = json_string_value(json_object_get(e->resolved, "plugin"));
  const char *units = e->interleave.axis ? "cells" : "variants";
  fprintf(out, "experiment %s (%s)\n", e->name, e->source);
  if (e->order.precision > 0) {
    fprintf(out,
            "  plugin %s; %u %s x %u to %u blocks = %llu to %llu runs\n"
            "  replicates adaptive: min %u, max %u blocks, until every 95%% half-width is at most "
            "%g%%",
            plugin, s->n_variants, units, e->order.min_blocks, s->n_blocks,
            (unsigned long long)s->n_variants * e->order.min_blocks,
            (unsigned long long)s->n_variants * s->n_blocks, e->order.min_blocks, s->n_blocks,
            e->order.precision * 100);
    if (e->order.decided > 0)
      fprintf(out, " or every verdict at the %g%% threshold is beyond doubt",
              e->order.decided * 100);
    fputc('\n', out);
  } else {
    fprintf(out, "  plugin %s; %u %s x %u blocks = %llu runs\n", plugin, s->n_variants, units,
            s->n_blocks, (unsigned long long)s->n_variants * s->n_blocks);
  }
  if (e->interleave.axis) print_interleave(out, e);
  fprintf(out, "  order %s, seed=%llu%s", e->order.design->name, (unsigned long long)e->order.seed,
          e->order.randomize ? ", randomized" : "");
  if (s->square_rows)
    fprintf(out, "; square of %u rows, %s", s->square_rows,
            s->incomplete ? "INCOMPLETE" : "complete");
  fprintf(out, "\n  hash %s\n  output %s\n", e->hash, e->output);
  rigor_plan_estimate_print(out, e);
  rigor_run_memory_print(out, e);
  for (uint32_t v = 0; v < e->n_variants; v++) {
    const json_t *build = json_object_get(e->variants[v].settings, "build");
    bool first = build != NULL;
    for (uint32_t u = 0; u < v && first; u++)
      first = !json_equal(json_object_get(e->variants[u].settings, "build"), (json_t *)build);
    if (first)
      fprintf(out, "  build %s: %s\n", json_string_value(json_object_get(build, "label")),
              json_string_value(json_object_get(build, "plugin_path")));
  }
  if (e->runs_commands) {
    fprintf(out, "  commands (executed only under --allow-commands):\n");
    for (uint32_t v = 0; v < e->n_variants; v++)
      for (const char *line = e->variants[v].commands; line && *line;) {
        size_t len = strcspn(line, "\n");
        char label[512];
        fprintf(out, "    ! v%u %s: %.*s\n", v,
                rigor_term_text(e->variants[v].label, label, sizeof label), (int)len, line);
        line += len + (line[len] == '\n');
      }
  }
  for (uint32_t b = 0; b < s->n_blocks; b++) {
    fprintf(out, "  block %u\n", b);
    for (uint32_t p = 0; e->interleave.axis && p < s->n_variants; p++) {
      const rigor_interleave_t *il = &e->interleave;
      uint32_t cell = s->cells[(size_t)b * s->n_variants + p];
      fprintf(out, "    %3u  cell %-3u arms", p, cell);
      for (uint32_t a = 0; a < il->n_arms; a++)
        fprintf(out, " v%u", il->arms[(size_t)cell * il->n_arms + a]);
      /* The cell is what its arms share: every axis but the interleaved one. */
      json_t *shared = json_copy(e->variants[il->arms[(size_t)cell * il->n_arms]].axes);
      json_object_del(shared, il->axis);
      fprintf(out, "  ");
      if (json_object_size(shared))
        print_axes(out, shared);
      else
        fprintf(out, "(no other axis)");
      json_decref(shared);
      fprintf(out, "\n         cycles: ");
      print_cycles(out, e, cell, b);
      fprintf(out, "\n");
    }
    for (uint32_t p = 0; !e->interleave.axis && p < s->n_variants; p++) {
      char label[512];
      const rigor_variant_t *v = &e->variants[s->cells[(size_t)b * s->n_variants + p]];
      fprintf(out, "    %s%3u  v%-3u %-30s  ", v->commands ? "!" : " ", p,
              s->cells[(size_t)b * s->n_variants + p],
              rigor_term_text(v->label, label, sizeof label));
      print_axes(out, v->axes);
      fprintf(out, "\n");
    }
  }
}

int rigor_cmd_plan(int argc, char **argv) {
  rigor_config_args_t ca;
  const char *out_path = NULL;
  rigor_option_t options[RIGOR_CONFIG_ARGS_N + 2] = {
      {"output", 'o', "OUT", "write the plan to OUT instead of standard output",
       .value = &out_path}};
  rigor_config_args_options(&ca, options + 1);
  const rigor_command_t cmd = {"plan", "FILE... [OPTION]...", about, options};
  rigor_strings_t files = {0};
  int code = rigor_args_parse(&cmd, argc, argv, &files);
  if (code < 0 && files.n == 0) code = rigor_usage_error(&cmd, "no experiment file given");
  if (code < 0) code = rigor_config_args_finish(&cmd, &ca);
  if (code >= 0) goto done;
  /* Every file loads before anything is written, so a wrong one leaves no partial plan. */
  rigor_config_t **cfgs = calloc(files.n, sizeof *cfgs);
  code = cfgs ? RIGOR_EXIT_OK : RIGOR_EXIT_RUN_FAILED;
  for (size_t f = 0; cfgs && f < files.n; f++)
    if (rigor_config_args_load(&ca, files.v[f], &cfgs[f]) != RIGOR_EXIT_OK) code = RIGOR_EXIT_USAGE;
  FILE *out = code == RIGOR_EXIT_OK ? rigor_output_open(&cmd, out_path) : NULL;
  if (code == RIGOR_EXIT_OK && !out) code = RIGOR_EXIT_CANNOT_WRITE;
  if (out) {
    /* Labels, paths and commands come from the file: their control characters are shown
     * escaped, never sent to the terminal. */
    FILE *guarded = rigor_term_guard(out);
    FILE *to = guarded ? guarded : out;
    bool first = true;
    for (size_t f = 0; f < files.n; f++)
      for (uint32_t i = 0; i < cfgs[f]->n_experiments; i++, first = false) {
        if (!first) fprintf(to, "\n");
        print_experiment(to, &cfgs[f]->experiments[i]);
      }
    if (guarded && fclose(guarded) != 0) code = RIGOR_EXIT_CANNOT_WRITE;
    if (rigor_output_close(&cmd, out_path, out)) code = RIGOR_EXIT_CANNOT_WRITE;
  }
  for (size_t f = 0; cfgs && f < files.n; f++)
    rigor_config_free(cfgs[f]);
  free(cfgs);
done:
  rigor_strings_free(&files);
  rigor_config_args_free(&ca);
  return code;
}
