/* hyperfine --export-json: {"results": [{command, times: [...], exit_codes: [...], parameters:
 * {NAME: VALUE}, mean, stddev, median, user, system, min, max}, ...]}. Each command is a variant
 * and each of its executions a run of one sample; the parameters of a scan are the matrix axes,
 * and without parameters the command itself is the one axis. The file names neither hyperfine's
 * version nor the machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "rigor/plugin.h"

static const char *const hyperfine_notes[] = {
    "hyperfine times each execution once: one sample per run, so no within-run spread and no "
    "first-cycle penalty",
    "user and system time only as each command's means (the variant's summary), not per run",
    "no hyperfine version, no host identity and no start times: the file does not record them",
    NULL,
};

/* The axes: the parameters, in the order the first command names them, each with its values
 * in the order the commands take them; or the commands when no command has parameters. */
static json_t *axes_of(rigor_import_ctx_t *c, const json_t *results) {
  json_t *axes = json_array(), *first_params = NULL;
  size_t i;
  json_t *r;
  json_array_foreach(results, i, r) {
    json_t *p = json_object_get(r, "parameters");
    if (json_is_object(p) && json_object_size(p) > 0) {
      first_params = p;
      break;
    }
  }
  if (!first_params) {
    json_t *values = json_array();
    json_array_foreach(results, i, r) {
      json_t *cmd = json_object_get(r, "command");
      json_array_append_new(values, json_pack("{s:O, s:O}", "label", cmd, "value", cmd));
    }
    json_array_append_new(axes, json_pack("{s:s, s:o}", "axis", "command", "values", values));
    return axes;
  }
  const char *name;
  json_t *unused;
  json_object_foreach(first_params, name, unused) {
    json_t *values = json_array();
    json_array_foreach(results, i, r) {
      char at[64];
      snprintf(at, sizeof at, "$.results[%zu].parameters", i);
      json_t *v =
          rigor_import_get(c, json_object_get(r, "parameters"), at, name, JSON_STRING, false);
      if (!v) break;
      bool seen = false;
      size_t k;
      json_t *lv;
      json_array_foreach(values, k, lv) seen = seen || json_equal(json_object_get(lv, "value"), v);
      if (!seen) json_array_append_new(values, json_pack("{s:O, s:O}", "label", v, "value", v));
    }
    json_array_append_new(axes, json_pack("{s:s, s:o}", "axis", name, "values", values));
  }
  return axes;
}

/* The command's numbers that hyperfine summarises over all its executions. */
static json_t *summary_of(const json_t *r) {
  static const char *const keys[] = {"mean", "stddev", "median", "user", "system", "min", "max"};
  json_t *s = json_object();
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    json_t *v = json_object_get(r, keys[k]);
    if (json_is_number(v)) json_object_set(s, keys[k], v);
  }
  return s;
}

typedef struct command {
  json_t *times, *exit_codes, *memory;
} command_t;

static int check_command(rigor_import_ctx_t *c, const json_t *r, size_t i, command_t *cmd) {
  char at[64];
  snprintf(at, sizeof at, "$.results[%zu]", i);
  if (!json_is_object(r)) return rigor_import_fail(c, at, "is not an object");
  if (!rigor_import_get(c, r, at, "command", JSON_STRING, false)) return c->rc;
  cmd->times = rigor_import_get(c, r, at, "times", JSON_ARRAY, false);
  cmd->exit_codes = rigor_import_get(c, r, at, "exit_codes", JSON_ARRAY, true);
  cmd->memory = rigor_import_get(c, r, at, "memory_usage_byte", JSON_ARRAY, true);
  if (c->rc) return c->rc;
  size_t n = json_array_size(cmd->times);
  if (n == 0) return rigor_import_fail(c, at, "\"times\" is empty");
  if (cmd->exit_codes && json_array_size(cmd->exit_codes) != n)
    return rigor_import_fail(c, at, "\"exit_codes\" has %zu entries for %zu times",
                             json_array_size(cmd->exit_codes), n);
  if (cmd->memory && json_array_size(cmd->memory) != n)
    return rigor_import_fail(c, at, "\"memory_usage_byte\" has %zu entries for %zu times",
                             json_array_size(cmd->memory), n);
  for (size_t k = 0; k < n; k++) {
    json_t *t = json_array_get(cmd->times, k), *e = json_array_get(cmd->exit_codes, k),
           *m = json_array_get(cmd->memory, k);
    char item[160];
    snprintf(item, sizeof item, "%s.times[%zu]", at, k);
    if (!json_is_number(t)) return rigor_import_fail(c, item, "is not a number");
    snprintf(item, sizeof item, "%s.exit_codes[%zu]", at, k);
    if (e && !json_is_integer(e) && !json_is_null(e))
      return rigor_import_fail(c, item, "is neither an integer nor null");
    snprintf(item, sizeof item, "%s.memory_usage_byte[%zu]", at, k);
    if (m && !json_is_number(m)) return rigor_import_fail(c, item, "is not a number");
  }
  return 0;
}

/* One execution: a run of one sample, failed when the command exited non-zero. */
static void add_execution(json_t *records, const char *name, const command_t *cmd, size_t k,
                          uint32_t variant, uint32_t n_variants, const char *label) {
  double t = json_number_value(json_array_get(cmd->times, k));
  json_t *e = json_array_get(cmd->exit_codes, k);
  rigor_import_run_t run = {.experiment = name,
                            .label = label,
                            .block = (uint32_t)k,
                            .variant = variant,
                            .n_variants = n_variants,
                            .status = "ok",
                            .exit_code = json_is_integer(e) ? (int)json_integer_value(e) : -1,
                            .elapsed_s = NAN};
  char reason[64] = "";
  if (json_is_null(e)) {
    run.status = "crashed";
    run.reason = "no exit code: the command was ended by a signal";
  } else if (run.exit_code > 0) {
    run.status = "failed";
    snprintf(reason, sizeof reason, "exit code %d", run.exit_code);
    run.reason = reason;
  }
  rigor_import_sample_t s = rigor_import_sample_init(name);
  s.run = rigor_import_run_index(&run);
  s.variant = variant;
  /* hyperfine subtracts the shell's start-up and stops at zero: a zero is below what it can
   * resolve, and a negative time is no time. */
  s.status = t > 0 ? "ok" : t == 0 ? "too_short" : "invalid";
  s.time_s = s.wall_s = t;
  s.iters = s.agg = 1;
  if (cmd->memory)
    s.metrics = json_pack("{s:O}", "memory_usage_byte", json_array_get(cmd->memory, k));
  json_array_append_new(records, rigor_import_sample_record(&s));
  json_array_append_new(records, rigor_import_run_record(&run));
}

static int import_file(const char *path, json_t *records, char *err, size_t errlen) {
  rigor_import_ctx_t c = {.path = path, .err = err, .errlen = errlen};
  json_t *doc = rigor_import_load_json(path, err, errlen);
  if (!doc) return RIGOR_EINVAL;
  json_t *results = rigor_import_get(&c, doc, "$", "results", JSON_ARRAY, false);
  size_t n = json_array_size(results), blocks = 0;
  if (results && n == 0) rigor_import_fail(&c, "$.results", "is empty");
  command_t *cmds = calloc(n ? n : 1, sizeof *cmds);
  bool any_memory = false;
  for (size_t i = 0; !c.rc && i < n; i++) {
    if (check_command(&c, json_array_get(results, i), i, &cmds[i])) break;
    if (json_array_size(cmds[i].times) > blocks) blocks = json_array_size(cmds[i].times);
    any_memory = any_memory || cmds[i].memory;
  }
  json_t *axes = c.rc ? NULL : axes_of(&c, results);
  char name[256];
  rigor_import_stem(path, ".json", name, sizeof name);
  json_t *file = c.rc ? NULL : rigor_import_file_entry(path, err, errlen);
  if (!c.rc && !file) c.rc = RIGOR_EINVAL;
  if (!c.rc) {
    json_t *variants = json_array(), *notes = json_array();
    bool by_command =
        strcmp(json_string_value(json_object_get(json_array_get(axes, 0), "axis")), "command") == 0;
    for (size_t i = 0; i < n; i++) {
      json_t *r = json_array_get(results, i), *params = json_object_get(r, "parameters");
      json_t *cmd = json_object_get(r, "command");
      json_t *variant_axes =
          by_command ? json_pack("{s:O}", "command", cmd) : json_deep_copy(params);
      json_array_append_new(variants, json_pack("{s:i, s:O, s:o, s:{s:O}, s:o}", "index", (int)i,
                                                "label", cmd, "axes", variant_axes, "settings",
                                                "command", cmd, "summary", summary_of(r)));
    }
    for (size_t k = 0; hyperfine_notes[k]; k++)
      json_array_append_new(notes, json_string(hyperfine_notes[k]));
    rigor_import_experiment_t x = {
        .name = name,
        .tool = "hyperfine",
        .files = json_pack("[o]", file),
        .settings = json_object(),
        .axes = axes,
        .variants = variants,
        .blocks = (uint32_t)blocks,
        .metrics = any_memory ? json_pack("[{s:s, s:s, s:s}]", "name", "memory_usage_byte", "unit",
                                          "B", "better", "lower")
                              : NULL,
        .notes = notes,
    };
    json_array_append_new(records, rigor_import_experiment_record(&x));
    json_decref(x.files), json_decref(x.settings), json_decref(x.variants);
    json_decref(x.metrics), json_decref(x.notes);
    for (size_t i = 0; i < n; i++) {
      const char *label = json_string_value(json_object_get(json_array_get(results, i), "command"));
      for (size_t k = 0; k < json_array_size(cmds[i].times); k++)
        add_execution(records, name, &cmds[i], k, (uint32_t)i, (uint32_t)n, label);
    }
  }
  json_decref(axes);
  free(cmds);
  json_decref(doc);
  return c.rc;
}

int rigor_import_hyperfine(const char *const *paths, size_t n, json_t *records, char *err,
                           size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    int rc = import_file(paths[i], records, err, errlen);
    if (rc) return rc;
  }
  return 0;
}
