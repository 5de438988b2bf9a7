#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"
#include "params.h"
#include "suggest.h"

static const char *const experiment_keys[] = {
    "name",        "description", "plugin", "params",   "sweep", "matrix",   "order",   "timing",
    "environment", "gate",        "output", "launcher", "ranks", "deadline", "extends", NULL};
static const char *const multi_keys[] = {"schema",      "name",   "description", "defaults",
                                         "experiments", "output", "extends",     NULL};
static const char *const order_keys[] = {"design",    "replicates", "seed",
                                         "randomize", "interleave", NULL};

static bool is_experiment_key(const char *key) {
  for (size_t i = 0; experiment_keys[i]; i++)
    if (strcmp(experiment_keys[i], key) == 0) return true;
  return false;
}

static int plugin_name(rigor__cfg_t *c, const rigor__node_t *n, const char **name) {
  /* `plugin: null` names the null plugin; YAML would read the word as a null value. */
  if (n->kind == RIGOR__SCALAR && strcmp(n->text, "null") == 0) {
    *name = n->text;
    return 0;
  }
  return rigor__get_string(c, n, "plugin", name);
}

static int get_plugin(rigor__cfg_t *c, const rigor__node_t *n, const char *name,
                      const rigor_loaded_t **out) {
  for (size_t i = 0; i < c->n_plugins; i++)
    if (strcmp(c->plugins[i]->desc.name, name) == 0) return *out = c->plugins[i], 0;
  rigor_loaded_t **grown = realloc(c->plugins, (c->n_plugins + 1) * sizeof *grown);
  if (!grown) return rigor__fail(c, n, "out of memory");
  c->plugins = grown;
  char msg[1024] = "";
  rigor_loaded_t *p = NULL;
  if (rigor_plugin_load(name, &c->opts->search, &p, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "plugin '%s': %s", name, msg);
  c->plugins[c->n_plugins++] = p;
  if (p->shadowed)
    rigor__warn(c, n, "plugin '%s' from %s shadows %s", name, p->origin, p->shadowed);
  *out = p;
  return 0;
}

static int resolve_params(rigor__cfg_t *c, const rigor_plugin_t *d, const rigor__node_t *n,
                          json_t **out) {
  char msg[512];
  json_t *params = rigor_params_defaults(d, msg, sizeof msg);
  if (!params) return rigor__fail(c, n, "%s", msg);
  *out = params;
  if (!n || rigor__is_null(n)) return 0;
  if (rigor__expect(c, n, RIGOR__MAP, "params")) return RIGOR_ECONFIG;
  for (size_t i = 0; i < n->n; i++) {
    const rigor_param_t *p = rigor_param_lookup(d, n->keys[i]->text);
    if (!p) {
      const char *names[257];
      size_t k = 0;
      for (; k < d->n_params && k < 256; k++)
        names[k] = d->params[k].name;
      names[k] = NULL;
      const char *near = rigor_closest(n->keys[i]->text, names, k);
      if (near)
        return rigor__fail(c, n->keys[i], "plugin '%s' has no param '%s' (did you mean '%s'?)",
                           d->name, n->keys[i]->text, near);
      return rigor__fail(c, n->keys[i], "plugin '%s' has no param '%s'", d->name, n->keys[i]->text);
    }
    char what[160];
    snprintf(what, sizeof what, "param '%s'", p->name);
    if (p->type == RIGOR_PARAM_JSON) {
      json_t *v = rigor__node_json(n->items[i]);
      if (!v) return rigor__fail(c, n->items[i], "%s: not valid UTF-8", what);
      json_object_set_new(params, p->name, v);
      continue;
    }
    if (rigor__expect(c, n->items[i], RIGOR__SCALAR, what)) return RIGOR_ECONFIG;
    json_t *v = NULL;
    if (rigor_param_from_text(p, n->items[i]->text, &v, msg, sizeof msg) != 0)
      return rigor__fail(c, n->items[i], "%s", msg);
    json_object_set_new(params, p->name, v);
  }
  return 0;
}

static int resolve_launcher(rigor__cfg_t *c, const rigor__node_t *n, json_t **out) {
  *out = json_null();
  if (!n || rigor__is_null(n)) return 0;
  if (rigor__expect(c, n, RIGOR__SEQ, "launcher")) return RIGOR_ECONFIG;
  if (n->n == 0) return rigor__fail(c, n, "launcher must name a command");
  json_t *argv = json_array();
  for (size_t i = 0; i < n->n; i++) {
    const char *arg = NULL;
    if (rigor__get_string(c, n->items[i], "launcher argument", &arg))
      return json_decref(argv), RIGOR_ECONFIG;
    for (const char *open = strchr(arg, '{'); open; open = strchr(open + 1, '{'))
      if (strncmp(open, "{ranks}", 7) != 0 && strncmp(open, "{nodes}", 7) != 0) {
        json_decref(argv);
        return rigor__fail(c, n->items[i],
                           "launcher argument '%s' has an unknown placeholder (known: {ranks}, "
                           "{nodes})",
                           arg);
      }
    json_array_append_new(argv, json_string(arg));
  }
  json_decref(*out);
  *out = argv;
  return 0;
}

/* replicates: {min, max, precision, decided}: the schedule holds max blocks, of which the first
 * min always run. Two blocks are the fewest that give an interval. */
static int resolve_adaptive(rigor__cfg_t *c, const rigor__node_t *n, rigor_order_t *o) {
  static const char *const keys[] = {"min", "max", "precision", "decided", NULL};
  if (rigor__check_keys(c, n, keys, "order.replicates")) return RIGOR_ECONFIG;
  const rigor__node_t *min = rigor__get(n, "min"), *max = rigor__get(n, "max"),
                      *precision = rigor__get(n, "precision");
  if (!max || !precision)
    return rigor__fail(c, n,
                       "order.replicates as a mapping needs 'max' and 'precision' (and takes "
                       "'min', default 3): {min: 3, max: 40, precision: 1%%}");
  uint64_t lo = 3, hi = 0;
  if (rigor__get_uint(c, max, "order.replicates.max", 2, 1000000, &hi)) return RIGOR_ECONFIG;
  if (!min && hi < lo) lo = hi;
  if (min && rigor__get_uint(c, min, "order.replicates.min", 2, 1000000, &lo)) return RIGOR_ECONFIG;
  if (lo > hi)
    return rigor__fail(c, min, "order.replicates.min (%llu) is above max (%llu)",
                       (unsigned long long)lo, (unsigned long long)hi);
  if (rigor__get_percent(c, precision, "order.replicates.precision", 1e-6, 0.999999, &o->precision))
    return RIGOR_ECONFIG;
  const rigor__node_t *decided = rigor__get(n, "decided");
  if (decided &&
      rigor__get_percent(c, decided, "order.replicates.decided", 1e-6, 0.999999, &o->decided))
    return RIGOR_ECONFIG;
  o->min_blocks = (uint32_t)lo;
  o->replicates = (uint32_t)hi;
  return 0;
}

static int resolve_order(rigor__cfg_t *c, const rigor__node_t *n, rigor_order_t *o) {
  *o = (rigor_order_t){.design = rigor_design_find("sequential"), .replicates = 1};
  if (!n || rigor__is_null(n)) return 0;
  if (rigor__expect(c, n, RIGOR__MAP, "order") || rigor__check_keys(c, n, order_keys, "order"))
    return RIGOR_ECONFIG;
  const rigor__node_t *v;
  int design = 0;
  uint64_t u = 0;
  if ((v = rigor__get(n, "design"))) {
    if (rigor__get_enum(c, v, "order.design", rigor_design_names(), &design)) return RIGOR_ECONFIG;
    o->design = &rigor_designs[design];
  }
  if ((v = rigor__get(n, "replicates")) && v->kind == RIGOR__MAP) {
    if (resolve_adaptive(c, v, o)) return RIGOR_ECONFIG;
  } else if (v) {
    if (rigor__get_uint(c, v, "order.replicates", 1, 1000000, &u)) return RIGOR_ECONFIG;
    o->replicates = (uint32_t)u;
  }
  if ((v = rigor__get(n, "seed"))) {
    if (rigor__get_uint(c, v, "order.seed", 0, INT64_MAX, &u)) return RIGOR_ECONFIG;
    o->seed = u;
  }
  if ((v = rigor__get(n, "randomize"))) {
    if (rigor__get_bool(c, v, "order.randomize", &o->randomize)) return RIGOR_ECONFIG;
    if (o->randomize && !o->design->randomisable) {
      char names[256] = "";
      for (const rigor_design_t *d = rigor_designs; d->name; d++) {
        size_t used = strlen(names);
        if (d->randomisable)
          snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", d->name);
      }
      return rigor__fail(c, v,
                         "order.randomize applies to the designs with squares (%s), not to '%s'",
                         names, o->design->name);
    }
  }
  return 0;
}

/* order.interleave: AXIS, or none. Without it, builds given on the command line interleave:
 * an A/B of two builds is most precise with both in every process. */
static int resolve_interleave(rigor__cfg_t *c, const rigor__node_t *n, const json_t *matrix,
                              rigor_experiment_t *e) {
  const rigor__node_t *order = rigor__get(n, "order");
  const rigor__node_t *v =
      order && order->kind == RIGOR__MAP ? rigor__get(order, "interleave") : NULL;
  const char *axis = NULL;
  if (v && rigor__get_string(c, v, "order.interleave", &axis)) return RIGOR_ECONFIG;
  if (v && strcmp(axis, "none") == 0) return 0;
  if (!v && c->opts->n_builds >= 2) {
    /* A launcher job does not host arms yet: its builds keep runs of their own. */
    for (uint32_t i = 0; i < e->n_variants; i++)
      if (json_is_array(json_object_get(e->variants[i].settings, "launcher"))) {
        rigor__warn(c, order ? order : n,
                    "experiment '%s': --build runs each build in runs of its own, since a "
                    "launcher job does not host arms yet",
                    e->name);
        return 0;
      }
    axis = "build";
  }
  if (!axis) return 0;
  return rigor__interleave(c, v ? v : order ? order : n, axis, matrix, e);
}

static int check_name(rigor__cfg_t *c, const rigor__node_t *n, const char **out) {
  if (rigor__get_string(c, n, "name", out)) return RIGOR_ECONFIG;
  for (const char *p = *out; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
      return rigor__fail(c, n, "name '%s' may use only letters, digits, '_', '-' and '.'", *out);
  return 0;
}

typedef struct top {
  const char *name;
  const char *output;
} top_t;

/* `executor` says where the whole file runs: one allocation for all its experiments. */
static int executor_misplaced(rigor__cfg_t *c, const rigor__node_t *map) {
  for (size_t i = 0; map && map->kind == RIGOR__MAP && i < map->n; i++)
    if (strcmp(map->keys[i]->text, "executor") == 0)
      return rigor__fail(c, map->keys[i],
                         "'executor' applies to the whole file: put it at the top level");
  return 0;
}

static int resolve_experiment(rigor__cfg_t *c, const rigor__node_t *n, const top_t *top,
                              rigor_experiment_t *e) {
  if (executor_misplaced(c, n) || rigor__check_keys(c, n, experiment_keys, "an experiment"))
    return RIGOR_ECONFIG;
  const rigor__node_t *v;
  const char *name = NULL, *description = NULL, *output = top->output;
  if (!(v = rigor__get(n, "name"))) return rigor__fail(c, n, "the experiment needs a 'name'");
  if (check_name(c, v, &name)) return RIGOR_ECONFIG;
  if ((v = rigor__get(n, "description")) && !rigor__is_null(v) &&
      rigor__get_string(c, v, "description", &description))
    return RIGOR_ECONFIG;
  if ((v = rigor__get(n, "output")) && rigor__get_string(c, v, "output", &output))
    return RIGOR_ECONFIG;
  if (!(v = rigor__get(n, "plugin")))
    return rigor__fail(c, n, "experiment '%s' needs a 'plugin'", name);
  const rigor_loaded_t *loaded = NULL;
  const char *plugin = NULL;
  rigor__axis_t builds = {0};
  /* With builds, the plugin comes from their folders: the search path is not asked. */
  if (plugin_name(c, v, &plugin) || rigor__builds(c, n, plugin, &builds, &loaded) ||
      (!builds.n_values && get_plugin(c, v, plugin, &loaded))) {
    rigor__axis_release(&builds);
    return RIGOR_ECONFIG;
  }
  const rigor_plugin_t *d = &loaded->desc;
  c->plugin = d;

  json_t *params = NULL, *sweep = NULL, *timing = NULL, *env = NULL, *gate = NULL, *launcher = NULL,
         *deadline = json_null();
  uint64_t ranks = 1;
  int rc = resolve_params(c, d, rigor__get(n, "params"), &params);
  if (!rc) rc = rigor__sweep(c, d, rigor__get(n, "sweep"), &sweep);
  if (!rc) rc = rigor__section(c, "timing", rigor__get(n, "timing"), &timing);
  if (!rc) rc = rigor__section(c, "environment", rigor__get(n, "environment"), &env);
  if (!rc) rc = rigor__section(c, "gate", rigor__get(n, "gate"), &gate);
  if (!rc) rc = resolve_launcher(c, rigor__get(n, "launcher"), &launcher);
  if (!rc && (v = rigor__get(n, "ranks"))) {
    rc = rigor__get_uint(c, v, "ranks", 1, 1000000, &ranks);
    if (!rc && ranks > 1 && json_is_null(launcher))
      rc = rigor__fail(c, v, "ranks: %llu needs a launcher (e.g. [mpirun, -np, \"{ranks}\"])",
                       (unsigned long long)ranks);
  }
  if (!rc && (v = rigor__get(n, "deadline")) && !rigor__is_null(v)) {
    double s = 0;
    rc = rigor__get_duration(c, v, "deadline", &s);
    json_decref(deadline);
    deadline = json_real(s);
  }
  json_t *settings =
      json_pack("{s:s, s:o*, s:o*, s:o*, s:o*, s:o*, s:o*, s:I, s:o}", "plugin", d->name, "params",
                params, "sweep", sweep, "timing", timing, "environment", env, "gate", gate,
                "launcher", launcher, "ranks", (json_int_t)ranks, "deadline", deadline);
  if (rc || !settings) {
    rigor__axis_release(&builds);
    return json_decref(settings), rc ? rc : rigor__fail(c, n, "out of memory");
  }

  json_t *matrix = NULL;
  e->name = strdup(name);
  e->source = strdup(n->src->path);
  rc = rigor__matrix(c, d, rigor__get(n, "matrix"), settings, json_object_get(settings, "sweep"),
                     &builds, e, &matrix);
  rigor__axis_release(&builds);
  if (!rc) rc = resolve_order(c, rigor__get(n, "order"), &e->order);
  if (!rc) rc = resolve_interleave(c, n, matrix, e);
  uint32_t per_block = e->interleave.axis ? e->interleave.n_cells : e->n_variants;
  if (!rc && (uint64_t)per_block * e->order.replicates > RIGOR_MAX_RUNS)
    rc =
        rigor__fail(c, rigor__get(n, "order") ? rigor__get(n, "order") : n,
                    "%u %s x %u replicates is more than %d runs", per_block,
                    e->interleave.axis ? "cells" : "variants", e->order.replicates, RIGOR_MAX_RUNS);
  if (!rc && rigor_plan_build(&e->order, per_block, &e->schedule) != 0)
    rc = rigor__fail(c, n, "cannot build the schedule (out of memory)");
  if (!rc && e->interleave.axis &&
      rigor_interleave_order(&e->order, e->schedule.n_blocks, &e->interleave) != 0)
    rc = rigor__fail(c, n, "cannot build the order of the arms (out of memory)");
  if (!rc && e->schedule.incomplete)
    rigor__warn(c, rigor__get(n, "order"),
                "experiment '%s': %u blocks leave the %u-row %s square incomplete, so positions "
                "are not balanced (use a multiple of %u %s)",
                name, e->schedule.n_blocks, e->schedule.square_rows, e->order.design->name,
                e->schedule.square_rows,
                e->order.precision > 0 ? "as replicates.max" : "replicates");
  if (rc) {
    json_decref(settings), json_decref(matrix);
    return rc;
  }
  json_t *replicates =
      e->order.precision > 0
          ? json_pack("{s:I, s:I, s:f}", "min", (json_int_t)e->order.min_blocks, "max",
                      (json_int_t)e->order.replicates, "precision", e->order.precision)
          : json_integer((json_int_t)e->order.replicates);
  /* Only when set, so the hash of every experiment without it stays what it was. */
  if (e->order.precision > 0 && e->order.decided > 0)
    json_object_set_new(replicates, "decided", json_real(e->order.decided));
  json_t *order = json_pack("{s:s, s:o, s:I, s:b, s:s*}", "design", e->order.design->name,
                            "replicates", replicates, "seed", (json_int_t)e->order.seed,
                            "randomize", (int)e->order.randomize, "interleave", e->interleave.axis);
  e->resolved = json_pack("{s:i, s:s, s:s?, s:s, s:o, s:o, s:o}", "schema", 1, "name", name,
                          "description", description, "plugin", d->name, "settings", settings,
                          "matrix", matrix, "order", order);
  if (!e->resolved || rigor_experiment_hash(e->resolved, e->hash) != 0)
    return rigor__fail(c, n, "out of memory");
  if (c->opts->output_override) {
    e->output = strdup(c->opts->output_override);
  } else if (output) {
    e->output = strdup(output);
  } else {
    size_t len = strlen(top->name ? top->name : name) + 16;
    e->output = malloc(len);
    if (e->output) snprintf(e->output, len, "results/%s.jsonl", top->name ? top->name : name);
  }
  if (!e->output || !e->name || !e->source) return rigor__fail(c, n, "out of memory");
  rc = rigor__plugin_hooks(c, d, n, e);
  return rc ? rc : rigor__launcher_commands(c, n, e);
}

static int check_schema(rigor__cfg_t *c, const rigor__node_t *root) {
  const rigor__node_t *v = rigor__get(root, "schema");
  if (!v) return rigor__fail(c, root, "missing 'schema: 1' (the experiment language version)");
  if (v->kind != RIGOR__SCALAR || strcmp(v->text, "1") != 0)
    return rigor__fail(c, v, "unsupported schema '%s' (this rigor reads schema 1)",
                       v->kind == RIGOR__SCALAR ? v->text : rigor__kind_name(v));
  return 0;
}

static int multi(rigor__cfg_t *c, const rigor__node_t *root, rigor_config_t *cfg) {
  for (size_t i = 0; i < root->n; i++) {
    const char *key = root->keys[i]->text;
    bool top_level = false;
    for (size_t k = 0; multi_keys[k] && !top_level; k++)
      top_level = strcmp(multi_keys[k], key) == 0;
    if (!top_level && is_experiment_key(key))
      return rigor__fail(c, root->keys[i],
                         "'%s' belongs under 'defaults:' or in an experiment when the file has "
                         "'experiments:'",
                         key);
  }
  if (rigor__check_keys(c, root, multi_keys, "the top level")) return RIGOR_ECONFIG;
  top_t top = {0};
  const rigor__node_t *v;
  if ((v = rigor__get(root, "name")) && check_name(c, v, &top.name)) return RIGOR_ECONFIG;
  if ((v = rigor__get(root, "description")) && !rigor__is_null(v) &&
      rigor__get_string(c, v, "description", &(const char *){NULL}))
    return RIGOR_ECONFIG;
  if ((v = rigor__get(root, "output")) && rigor__get_string(c, v, "output", &top.output))
    return RIGOR_ECONFIG;
  rigor__node_t *defaults = NULL;
  if ((v = rigor__get(root, "defaults")) && !rigor__is_null(v)) {
    if (rigor__expect(c, v, RIGOR__MAP, "defaults") || executor_misplaced(c, v) ||
        rigor__check_keys(c, v, experiment_keys, "defaults") ||
        rigor__expand_extends(c, v, &defaults))
      return RIGOR_ECONFIG;
    /* A shared base file carries its own `schema: 1`; it means nothing inside an experiment. */
    if (!(defaults = rigor__map_without(c, defaults, "schema")))
      return rigor__fail(c, v, "out of memory");
  }
  const rigor__node_t *list = rigor__get(root, "experiments");
  if (rigor__expect(c, list, RIGOR__SEQ, "experiments")) return RIGOR_ECONFIG;
  if (list->n == 0) return rigor__fail(c, list, "experiments is empty");
  rigor__node_t **merged = rigor__alloc(c, list->n * sizeof *merged);
  if (!merged) return rigor__fail(c, list, "out of memory");
  /* Names first: --only and duplicate checks need them before anything is resolved. */
  size_t chosen = SIZE_MAX;
  for (size_t i = 0; i < list->n; i++) {
    rigor__node_t *entry = NULL;
    if (rigor__expect(c, list->items[i], RIGOR__MAP, "an experiment") ||
        rigor__expand_extends(c, list->items[i], &entry) ||
        !(entry = rigor__map_without(c, entry, "schema")))
      return RIGOR_ECONFIG;
    merged[i] = rigor__merge(c, defaults, entry);
    const rigor__node_t *name = rigor__get(merged[i], "name");
    const char *text = NULL;
    if (!name) return rigor__fail(c, list->items[i], "experiment #%zu needs a 'name'", i + 1);
    if (check_name(c, name, &text)) return RIGOR_ECONFIG;
    for (size_t j = 0; j < i; j++)
      if (strcmp(rigor__get(merged[j], "name")->text, text) == 0)
        return rigor__fail(c, name, "duplicate experiment name '%s' (also at line %u)", text,
                           rigor__get(merged[j], "name")->line + 1);
    if (c->opts->only && strcmp(c->opts->only, text) == 0) chosen = i;
  }
  if (c->opts->only && chosen == SIZE_MAX) {
    char names[512] = "";
    for (size_t i = 0; i < list->n; i++) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
               rigor__get(merged[i], "name")->text);
    }
    char near[160];
    return rigor__fail(c, root, "no experiment named '%s' (the file has: %s)%s", c->opts->only,
                       names, rigor_did_you_mean(c->opts->only, names, near, sizeof near));
  }
  cfg->experiments = calloc(list->n, sizeof *cfg->experiments);
  if (!cfg->experiments) return rigor__fail(c, list, "out of memory");
  for (size_t i = 0; i < list->n; i++) {
    if (chosen != SIZE_MAX && i != chosen) continue;
    if (resolve_experiment(c, merged[i], &top, &cfg->experiments[cfg->n_experiments++]))
      return RIGOR_ECONFIG;
  }
  return 0;
}

static int single(rigor__cfg_t *c, const rigor__node_t *root, rigor_config_t *cfg) {
  if (rigor__get(root, "defaults"))
    return rigor__fail(c, rigor__get(root, "defaults"),
                       "'defaults' applies to an 'experiments' list, which this file lacks");
  rigor__node_t *body = rigor__map_without(c, root, "schema");
  if (!body) return rigor__fail(c, root, "out of memory");
  const char *const *allowed = experiment_keys;
  if (rigor__check_keys(c, body, allowed, "the top level")) return RIGOR_ECONFIG;
  const rigor__node_t *name = rigor__get(body, "name");
  if (c->opts->only && name && name->kind == RIGOR__SCALAR && strcmp(name->text, c->opts->only)) {
    char near[160];
    return rigor__fail(c, name, "no experiment named '%s' (the file has: %s)%s", c->opts->only,
                       name->text,
                       rigor_did_you_mean(c->opts->only, name->text, near, sizeof near));
  }
  cfg->experiments = calloc(1, sizeof *cfg->experiments);
  if (!cfg->experiments) return rigor__fail(c, root, "out of memory");
  top_t top = {0};
  cfg->n_experiments = 1;
  return resolve_experiment(c, body, &top, &cfg->experiments[0]);
}

int rigor_config_load(const char *path, const rigor_config_opts_t *opts, rigor_config_t **out,
                      char *err, size_t errlen) {
  static const rigor_config_opts_t no_opts = {0};
  *out = NULL;
  if (err && errlen) err[0] = '\0';
  rigor__cfg_t c = {.opts = opts ? opts : &no_opts, .err = err, .errlen = errlen};
  rigor_config_t *cfg = calloc(1, sizeof *cfg);
  c.warnings = json_array();
  if (!cfg || !c.warnings || !(cfg->path = strdup(path))) {
    free(cfg);
    json_decref(c.warnings);
    snprintf(err, errlen, "%s: out of memory", path);
    return RIGOR_ENOMEM;
  }
  cfg->warnings = c.warnings;
  rigor__node_t *root = NULL, *expanded = NULL;
  int rc = rigor__load_file(&c, path, NULL, &root);
  if (!rc) rc = rigor__expand_extends(&c, root, &expanded);
  if (!rc) rc = check_schema(&c, expanded);
  if (!rc && rigor__get(expanded, "executor")) {
    rc = rigor__executor(&c, rigor__get(expanded, "executor"), &cfg->executor);
    if (!rc && !(expanded = rigor__map_without(&c, expanded, "executor")))
      rc = rigor__fail(&c, root, "out of memory");
  }
  if (!rc)
    rc = rigor__get(expanded, "experiments") ? multi(&c, expanded, cfg) : single(&c, expanded, cfg);
  cfg->sources = json_array();
  for (const rigor__source_t *s = c.sources; s; s = s->next)
    json_array_append_new(cfg->sources, json_string(s->real ? s->real : s->path));
  for (size_t i = 0; i < c.n_plugins; i++)
    rigor_plugin_unload(c.plugins[i]);
  free(c.plugins);
  for (size_t i = 0; i < c.n_build_plugins; i++)
    rigor_plugin_unload(c.build_plugins[i]);
  free(c.build_plugins);
  rigor__arena_free(&c);
  if (rc) {
    rigor_config_free(cfg);
    return RIGOR_ECONFIG;
  }
  *out = cfg;
  return 0;
}

void rigor_config_free(rigor_config_t *cfg) {
  if (!cfg) return;
  json_decref(cfg->executor);
  for (uint32_t i = 0; i < cfg->n_experiments; i++) {
    rigor_experiment_t *e = &cfg->experiments[i];
    for (uint32_t k = 0; k < e->n_variants; k++) {
      free(e->variants[k].label);
      free(e->variants[k].commands);
      json_decref(e->variants[k].axes);
      json_decref(e->variants[k].settings);
    }
    free(e->variants);
    free(e->name);
    free(e->source);
    free(e->output);
    json_decref(e->resolved);
    rigor_schedule_free(&e->schedule);
    rigor_interleave_free(&e->interleave);
  }
  free(cfg->experiments);
  json_decref(cfg->warnings);
  json_decref(cfg->sources);
  free(cfg->path);
  free(cfg);
}
