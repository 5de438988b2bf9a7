#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "environment_settings.h"
#include "language_internal.h"
#include "timing.h"
#include "units.h"

#define MAX_CPU 4095

static int machine_check(rigor__cfg_t *c, const char *field, const json_t *value, char *msg,
                         size_t len) {
  return c->opts->check_machine ? c->opts->check_machine(field, value, msg, len) : 0;
}

static int uint_field(rigor__cfg_t *c, const rigor__node_t *n, const char *what, uint64_t min,
                      uint64_t max, json_t **out) {
  uint64_t v = 0;
  if (rigor__get_uint(c, n, what, min, max, &v)) return RIGOR_ECONFIG;
  *out = json_integer((json_int_t)v);
  return 0;
}

static int enum_field(rigor__cfg_t *c, const rigor__node_t *n, const char *what,
                      const char *const *names, json_t **out) {
  int i = 0;
  if (rigor__get_enum(c, n, what, names, &i)) return RIGOR_ECONFIG;
  *out = json_string(names[i]);
  return 0;
}

static int bool_field(rigor__cfg_t *c, const rigor__node_t *n, const char *what, json_t **out) {
  bool b = false;
  if (rigor__get_bool(c, n, what, &b)) return RIGOR_ECONFIG;
  *out = json_boolean(b);
  return 0;
}

static int conv_warmup(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return uint_field(c, n, w, 0, UINT32_MAX, o);
}
static int conv_cycles(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return uint_field(c, n, w, 1, UINT32_MAX, o);
}
static int conv_count(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return uint_field(c, n, w, 1, INT64_MAX, o);
}
/* A count, or `auto`: calibrated per run and point to timing.min_window. */
static int conv_iters(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  if (n->kind == RIGOR__SCALAR && strcmp(n->text, "auto") == 0) {
    *o = json_string("auto");
    return 0;
  }
  if (n->kind == RIGOR__SCALAR && !isdigit((unsigned char)n->text[0]) && n->text[0] != '-')
    return rigor__fail(c, n, "%s: '%s' is neither a count of iterations nor 'auto'", w, n->text);
  return uint_field(c, n, w, 1, INT64_MAX, o);
}
static int conv_check(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return uint_field(c, n, w, 0, UINT32_MAX, o);
}
static int conv_min_samples(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return uint_field(c, n, w, 1, UINT32_MAX, o);
}
static int conv_blocking(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return enum_field(c, n, w, rigor_blocking_names, o);
}
static int conv_aggregate(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return enum_field(c, n, w, rigor_aggregate_names, o);
}
static int conv_report(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return enum_field(c, n, w, rigor_window_names, o);
}
static int conv_warmup_sizes(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return enum_field(c, n, w, rigor_warmup_sizes_names, o);
}
static int conv_bool(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return bool_field(c, n, w, o);
}
static int conv_duration(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  double v = 0;
  if (rigor__get_duration(c, n, w, &v)) return RIGOR_ECONFIG;
  *o = json_real(v);
  return 0;
}
/* Below a microsecond a window is the clock's own cost, whatever the plugin does. */
static int conv_min_window(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  double v = 0;
  if (rigor__get_duration(c, n, w, &v)) return RIGOR_ECONFIG;
  if (!(v >= 1e-6) || v > 3600)
    return rigor__fail(c, n, "%s must be from 1us to 1h, not '%s'", w, n->text);
  *o = json_real(v);
  return 0;
}
static int conv_cv_max(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  double v = 0;
  if (rigor__get_percent(c, n, w, 1e-6, 10, &v)) return RIGOR_ECONFIG;
  *o = json_real(v);
  return 0;
}
static int conv_significance(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  double v = 0;
  if (rigor__get_percent(c, n, w, 1e-12, 0.5, &v)) return RIGOR_ECONFIG;
  *o = json_real(v);
  return 0;
}
static int conv_magnitude(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  double v = 0;
  if (rigor__get_percent(c, n, w, 0, 10, &v)) return RIGOR_ECONFIG;
  *o = json_real(v);
  return 0;
}
static int conv_window(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return uint_field(c, n, w, 2, 100000, o);
}
static int conv_fraction(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  double v = 0;
  if (rigor__get_percent(c, n, w, 0, 1, &v)) return RIGOR_ECONFIG;
  *o = json_real(v);
  return 0;
}

static const char *const gate_statistic_names[] = {"cv", "robust", NULL};
static int conv_statistic(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  return enum_field(c, n, w, gate_statistic_names, o);
}

/* The figures an expectation can name besides the plugin's metrics, and how each is written. */
static const struct expect_figure {
  const char *name;
  const char *unit; /* for rigor_parse_rate; NULL: a duration */
} expect_figures[] = {{"time", NULL}, {"rate", "B/s"}, {"busbw", "B/s"}, {"flops", "FLOP/s"}};

static int expect_value(rigor__cfg_t *c, const rigor__node_t *n, const char *what,
                        const char *figure, const rigor_metric_t *metric, json_t **out) {
  if (rigor__expect(c, n, RIGOR__SCALAR, what)) return RIGOR_ECONFIG;
  const char *t = n->text;
  static const char *const ops[] = {">=", "<=", ">", "<", NULL};
  const char *op = NULL;
  for (size_t i = 0; ops[i] && !op; i++)
    if (strncmp(t, ops[i], strlen(ops[i])) == 0) op = ops[i];
  if (!op)
    return rigor__fail(c, n, "%s: '%s' needs a comparison first: >=, <=, > or < (\">= 300GB/s\")",
                       what, t);
  const char *num = t + strlen(op);
  while (*num == ' ')
    num++;
  char msg[256] = "";
  double v = 0;
  int rc = -1;
  for (size_t i = 0; !metric && i < sizeof expect_figures / sizeof *expect_figures; i++)
    if (strcmp(expect_figures[i].name, figure) == 0)
      rc = expect_figures[i].unit
               ? rigor_parse_rate(num, expect_figures[i].unit, &v, msg, sizeof msg)
               : rigor_parse_duration(num, &v, msg, sizeof msg);
  if (metric) {
    /* A plain number, optionally followed by the metric's declared unit. */
    char *end = NULL;
    v = strtod(num, &end);
    while (end && *end == ' ')
      end++;
    rc = end != num && isfinite(v) &&
                 (*end == '\0' || (metric->unit && strcmp(end, metric->unit) == 0))
             ? 0
             : -1;
    if (rc)
      snprintf(msg, sizeof msg, "'%s' is not a number%s%s", num, metric->unit ? " of " : "",
               metric->unit ? metric->unit : "");
  }
  if (rc) return rigor__fail(c, n, "%s: %s", what, msg);
  *out = json_pack("{s:s, s:f, s:s}", "op", op, "value", v, "text", t);
  return 0;
}

/* gate.expect: {figure: "OP VALUE"}, figures being time, rate, busbw, flops or a metric of the
 * experiment's plugin. */
static int conv_expect(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  if (rigor__is_null(n)) {
    *o = json_object();
    return 0;
  }
  if (rigor__expect(c, n, RIGOR__MAP, w)) return RIGOR_ECONFIG;
  json_t *obj = json_object();
  for (size_t i = 0; i < n->n; i++) {
    const char *key = n->keys[i]->text;
    const rigor_metric_t *metric = NULL;
    bool known = false;
    for (size_t k = 0; k < sizeof expect_figures / sizeof *expect_figures; k++)
      known = known || strcmp(expect_figures[k].name, key) == 0;
    for (uint32_t m = 0; !known && c->plugin && m < c->plugin->n_metrics; m++)
      if (strcmp(c->plugin->metrics[m].name, key) == 0) metric = &c->plugin->metrics[m];
    if (!known && !metric) {
      char names[1024] = "time, rate, busbw, flops";
      for (uint32_t m = 0; c->plugin && m < c->plugin->n_metrics; m++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, ", %s", c->plugin->metrics[m].name);
      }
      json_decref(obj);
      return rigor__fail(c, n->keys[i], "%s: no figure '%s' (figures: %s)", w, key, names);
    }
    char what[160];
    snprintf(what, sizeof what, "%s.%s", w, key);
    json_t *v = NULL;
    if (expect_value(c, n->items[i], what, key, metric, &v)) return json_decref(obj), RIGOR_ECONFIG;
    json_object_set_new(obj, key, v);
  }
  *o = obj;
  return 0;
}

/* A list of CPU numbers, or one number. */
static int cpu_list(rigor__cfg_t *c, const rigor__node_t *n, const char *what, json_t **out) {
  json_t *cpus = json_array();
  if (n->kind == RIGOR__SCALAR && !rigor__is_null(n)) {
    json_t *v = NULL;
    if (uint_field(c, n, what, 0, MAX_CPU, &v)) return json_decref(cpus), RIGOR_ECONFIG;
    json_array_append_new(cpus, v);
  } else if (rigor__expect(c, n, RIGOR__SEQ, what)) {
    return json_decref(cpus), RIGOR_ECONFIG;
  }
  for (size_t i = 0; n->kind == RIGOR__SEQ && i < n->n; i++) {
    json_t *v = NULL;
    if (uint_field(c, n->items[i], what, 0, MAX_CPU, &v)) return json_decref(cpus), RIGOR_ECONFIG;
    for (size_t j = 0; j < json_array_size(cpus); j++)
      if (json_equal(json_array_get(cpus, j), v)) {
        json_decref(v), json_decref(cpus);
        return rigor__fail(c, n->items[i], "%s: CPU %s is listed twice", what, n->items[i]->text);
      }
    json_array_append_new(cpus, v);
  }
  if (json_array_size(cpus) == 0) {
    json_decref(cpus);
    return rigor__fail(c, n, "%s must name at least one CPU", what);
  }
  *out = cpus;
  return 0;
}

static int conv_affinity(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  if (rigor__is_null(n)) {
    *o = json_null();
    return 0;
  }
  static const char *const keys[] = {"cpus", "numa", NULL};
  if (rigor__expect(c, n, RIGOR__MAP, w) || rigor__check_keys(c, n, keys, w)) return RIGOR_ECONFIG;
  const rigor__node_t *cpus = rigor__get(n, "cpus"), *numa = rigor__get(n, "numa");
  if (!cpus == !numa) return rigor__fail(c, n, "%s needs exactly one of 'cpus' or 'numa'", w);
  json_t *value = NULL, *obj = json_object();
  int rc = cpus ? cpu_list(c, cpus, "environment.affinity.cpus", &value)
                : uint_field(c, numa, "environment.affinity.numa", 0, 1023, &value);
  if (rc) return json_decref(obj), rc;
  json_object_set_new(obj, cpus ? "cpus" : "numa", value);
  char msg[512] = "";
  if (machine_check(c, "affinity", obj, msg, sizeof msg) != 0) {
    json_decref(obj);
    return rigor__fail(c, n, "%s: %s", w, msg);
  }
  *o = obj;
  return 0;
}

static int burner(rigor__cfg_t *c, const rigor__node_t *n, json_t *burners) {
  static const char *const keys[] = {"kind", "cpus", NULL};
  static const char *const kinds[] = {"cpu", "membw", NULL};
  if (rigor__expect(c, n, RIGOR__MAP, "a noise burner") ||
      rigor__check_keys(c, n, keys, "a noise burner"))
    return RIGOR_ECONFIG;
  const rigor__node_t *kind = rigor__get(n, "kind"), *cpus = rigor__get(n, "cpus");
  json_t *k = NULL, *list = NULL;
  if (!cpus) return rigor__fail(c, n, "a noise burner needs 'cpus'");
  if (kind && enum_field(c, kind, "burner kind", kinds, &k)) return RIGOR_ECONFIG;
  if (cpu_list(c, cpus, "burner cpus", &list)) return json_decref(k), RIGOR_ECONFIG;
  json_array_append_new(burners,
                        json_pack("{s:o, s:o}", "kind", k ? k : json_string("cpu"), "cpus", list));
  return 0;
}

static int burner_list(rigor__cfg_t *c, const rigor__node_t *n, json_t *burners) {
  if (n->kind == RIGOR__MAP) return burner(c, n, burners);
  if (rigor__expect(c, n, RIGOR__SEQ, "noise burners")) return RIGOR_ECONFIG;
  for (size_t i = 0; i < n->n; i++)
    if (burner(c, n->items[i], burners)) return RIGOR_ECONFIG;
  return 0;
}

/* "cpu@0+membw@1,2" names an unlabelled set of burners. */
static json_t *burners_label(const json_t *burners) {
  char buf[256] = "";
  size_t i;
  json_t *b;
  json_array_foreach(burners, i, b) {
    size_t used = strlen(buf);
    snprintf(buf + used, sizeof buf - used, "%s%s@", i ? "+" : "",
             json_string_value(json_object_get(b, "kind")));
    size_t j;
    json_t *cpu;
    json_array_foreach(json_object_get(b, "cpus"), j, cpu) {
      used = strlen(buf);
      snprintf(buf + used, sizeof buf - used, "%s%lld", j ? "," : "",
               (long long)json_integer_value(cpu));
    }
  }
  return json_string(buf[0] ? buf : "idle");
}

static int conv_noise(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  json_t *burners = json_array(), *label = NULL;
  if (rigor__is_null(n)) {
    label = json_string("idle");
  } else if (n->kind == RIGOR__MAP) {
    static const char *const keys[] = {"label", "burners", NULL};
    if (rigor__check_keys(c, n, keys, w)) return json_decref(burners), RIGOR_ECONFIG;
    const rigor__node_t *l = rigor__get(n, "label"), *b = rigor__get(n, "burners");
    const char *text = NULL;
    if (l && rigor__get_string(c, l, "noise label", &text))
      return json_decref(burners), RIGOR_ECONFIG;
    if (b && !rigor__is_null(b) && burner_list(c, b, burners))
      return json_decref(burners), RIGOR_ECONFIG;
    label = text ? json_string(text) : burners_label(burners);
  } else if (n->kind == RIGOR__SEQ) {
    if (burner_list(c, n, burners)) return json_decref(burners), RIGOR_ECONFIG;
    label = burners_label(burners);
  } else {
    json_decref(burners);
    return rigor__fail(c, n, "%s must be a mapping {label, burners} or a list of burners", w);
  }
  json_t *noise = json_pack("{s:o, s:o}", "label", label, "burners", burners);
  char msg[512] = "";
  if (machine_check(c, "noise", noise, msg, sizeof msg) != 0) {
    json_decref(noise);
    return rigor__fail(c, n, "%s: %s", w, msg);
  }
  *o = noise;
  return 0;
}

static json_t *telemetry_defaults(void) {
  rigor_environment_t e;
  rigor_environment_defaults(&e);
  return json_pack("{s:f, s:b, s:f}", "interval", e.telemetry.interval_s, "raw",
                   (int)e.telemetry.raw, "clock_threshold", e.telemetry.clock_threshold);
}

static int conv_telemetry(rigor__cfg_t *c, const rigor__node_t *n, const char *w, json_t **o) {
  static const char *const keys[] = {"interval", "raw", "clock_threshold", NULL};
  json_t *t = telemetry_defaults();
  if (rigor__is_null(n)) {
    *o = t;
    return 0;
  }
  if (rigor__expect(c, n, RIGOR__MAP, w) || rigor__check_keys(c, n, keys, w))
    return json_decref(t), RIGOR_ECONFIG;
  const rigor__node_t *v;
  json_t *x = NULL;
  if ((v = rigor__get(n, "interval"))) {
    if (conv_duration(c, v, "environment.telemetry.interval", &x))
      return json_decref(t), RIGOR_ECONFIG;
    if (json_real_value(x) < 0.001) {
      json_decref(x), json_decref(t);
      return rigor__fail(c, v, "environment.telemetry.interval must be at least 1ms");
    }
    json_object_set_new(t, "interval", x);
  }
  if ((v = rigor__get(n, "raw"))) {
    if (bool_field(c, v, "environment.telemetry.raw", &x)) return json_decref(t), RIGOR_ECONFIG;
    json_object_set_new(t, "raw", x);
  }
  if ((v = rigor__get(n, "clock_threshold"))) {
    if (conv_fraction(c, v, "environment.telemetry.clock_threshold", &x))
      return json_decref(t), RIGOR_ECONFIG;
    json_object_set_new(t, "clock_threshold", x);
  }
  *o = t;
  return 0;
}

static const rigor__field_t timing_fields[] = {
    {"warmup", conv_warmup, true, false, false},
    {"cycles", conv_cycles, true, false, false},
    {"iters", conv_iters, true, false, false},
    {"min_window", conv_min_window, false, false, false},
    {"agg", conv_count, true, false, false},
    {"blocking", conv_blocking, false, false, false},
    {"per_iteration", conv_bool, false, false, false},
    {"aggregate", conv_aggregate, false, false, false},
    {"check", conv_check, true, false, false},
    {"timeout", conv_duration, false, false, false},
    {"report", conv_report, false, false, false},
    {"warmup_sizes", conv_warmup_sizes, false, false, false},
    {NULL, NULL, false, false, false},
};
static const rigor__field_t environment_fields[] = {
    {"affinity", conv_affinity, false, true, false},
    {"noise", conv_noise, false, true, true},
    {"randomize_env", conv_bool, false, false, false},
    {"telemetry", conv_telemetry, false, true, false},
    {NULL, NULL, false, false, false},
};
/* In the order did-you-mean has always weighed them. */
static const rigor__field_t gate_fields[] = {
    {"cv_max", conv_cv_max, false, false, false},
    {"min_samples", conv_min_samples, true, false, false},
    {"statistic", conv_statistic, false, false, false},
    {"expect", conv_expect, false, true, false},
    {"change_significance", conv_significance, false, false, false},
    {"change_min_magnitude", conv_magnitude, false, false, false},
    {"change_window", conv_window, true, false, false},
    {NULL, NULL, false, false, false},
};

static json_t *timing_defaults(void) {
  rigor_timing_t t;
  rigor_timing_defaults(&t);
  return rigor_timing_to_json(&t);
}

static json_t *environment_defaults(void) {
  return json_pack("{s:n, s:{s:s, s:[]}, s:b, s:o}", "affinity", "noise", "label", "idle",
                   "burners", "randomize_env", 0, "telemetry", telemetry_defaults());
}

static json_t *gate_defaults(void) {
  return json_pack("{s:f, s:i, s:s}", "cv_max", 0.05, "min_samples", 5, "statistic", "cv");
}

/* One table per group of settings: its fields (names and converters) and its defaults. */
typedef struct section {
  const char *name;
  const rigor__field_t *fields;
  json_t *(*defaults)(void);
} section_t;

static const section_t sections[] = {
    {"timing", timing_fields, timing_defaults},
    {"environment", environment_fields, environment_defaults},
    {"gate", gate_fields, gate_defaults},
};

static const section_t *section_of(const char *name) {
  for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
    if (strcmp(sections[i].name, name) == 0) return &sections[i];
  return NULL;
}

const char *rigor__section_named(const char *text, size_t len) {
  for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
    if (strlen(sections[i].name) == len && strncmp(sections[i].name, text, len) == 0)
      return sections[i].name;
  return NULL;
}

size_t rigor__section_names(const char *section, const char **names, size_t cap) {
  const section_t *s = section_of(section);
  size_t n = 0;
  for (const rigor__field_t *f = s ? s->fields : NULL; f && f->name && n + 1 < cap; f++)
    names[n++] = f->name;
  if (cap) names[n] = NULL;
  return n;
}

const rigor__field_t *rigor__field_find(const char *section, const char *name) {
  const section_t *s = section_of(section);
  for (const rigor__field_t *f = s ? s->fields : NULL; f && f->name; f++)
    if (strcmp(f->name, name) == 0) return f;
  return NULL;
}

int rigor__section(rigor__cfg_t *c, const char *section, const rigor__node_t *n, json_t **out) {
  json_t *obj = section_of(section)->defaults();
  if (!n || rigor__is_null(n)) {
    *out = obj;
    return 0;
  }
  const char *names[RIGOR__SECTION_FIELDS_MAX + 1];
  rigor__section_names(section, names, sizeof names / sizeof *names);
  if (rigor__expect(c, n, RIGOR__MAP, section) || rigor__check_keys(c, n, names, section))
    return json_decref(obj), RIGOR_ECONFIG;
  for (size_t i = 0; i < n->n; i++) {
    const rigor__field_t *f = rigor__field_find(section, n->keys[i]->text);
    char what[96];
    snprintf(what, sizeof what, "%s.%s", section, f->name);
    json_t *v = NULL;
    if (f->convert(c, n->items[i], what, &v)) return json_decref(obj), RIGOR_ECONFIG;
    json_object_set_new(obj, f->name, v);
  }
  *out = obj;
  return 0;
}
