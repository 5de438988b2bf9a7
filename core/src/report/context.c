#include "context.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const json_t *at(const json_t *o, const char *a, const char *b) {
  const json_t *x = json_object_get(o, a);
  return b ? json_object_get(x, b) : x;
}

static const char *str(const json_t *v) {
  return json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
}

/* The first string of two places (an older record spells a member otherwise). */
static json_t *first_string(const json_t *a, const json_t *b) {
  const char *s = str(a) ? str(a) : str(b);
  return s ? json_string(s) : json_null();
}

static json_t *integer_or_null(const json_t *v) {
  return json_is_integer(v) ? json_integer(json_integer_value(v)) : json_null();
}

static json_t *kernel_of(const json_t *identity) {
  const json_t *k = json_object_get(identity, "kernel");
  if (json_is_string(k)) return json_string(json_string_value(k));
  const char *sys = str(json_object_get(k, "sysname")), *rel = str(json_object_get(k, "release"));
  if (!sys && !rel) return json_null();
  char buf[256];
  snprintf(buf, sizeof buf, "%s%s%s", sys ? sys : "", sys && rel ? " " : "", rel ? rel : "");
  return json_string(buf);
}

static void add_warnings(json_t *out, const json_t *checks) {
  size_t i;
  json_t *c;
  json_array_foreach(checks, i, c) {
    const char *status = str(json_object_get(c, "status"));
    if (!status || strcmp(status, "warn") != 0) continue;
    json_array_append_new(out,
                          json_pack("{s:s?, s:s?, s:s?}", "check", str(json_object_get(c, "check")),
                                    "detail", str(json_object_get(c, "detail")), "advice",
                                    str(json_object_get(c, "advice"))));
  }
}

static bool has_warning(const json_t *out, const char *check, const char *detail) {
  size_t i;
  json_t *w;
  json_array_foreach(out, i, w) {
    const char *c = str(json_object_get(w, "check")), *d = str(json_object_get(w, "detail"));
    if (c && d && strcmp(c, check) == 0 && strcmp(d, detail) == 0) return true;
  }
  return false;
}

/* A plugin's own warnings: identity keys ending in ".warning" (e.g. stream's arrays that fit in
 * the cache), each distinct one once however many runs repeat it. */
static void add_plugin_warnings(json_t *out, const json_t *identity) {
  const char *key;
  json_t *value;
  json_object_foreach((json_t *)identity, key, value) {
    const size_t len = strlen(key), suffix = strlen(".warning");
    const char *detail = str(value);
    if (len <= suffix || strcmp(key + len - suffix, ".warning") != 0 || !detail) continue;
    if (!has_warning(out, key, detail))
      json_array_append_new(out, json_pack("{s:s, s:s}", "check", key, "detail", detail));
  }
}

/* The experiment record's warnings, then those of the checks sampled over a window, which the
 * run record that closed the window carries (docs/results-format.md), then the plugin's. */
static json_t *warnings_of(const rigor_exp_analysis_t *e) {
  json_t *out = json_array();
  add_warnings(out, json_object_get(e->record, "checks"));
  for (size_t k = 0; k < e->n_runs; k++)
    add_warnings(out, json_object_get(e->runs[k].record, "checks"));
  for (size_t k = 0; k < e->n_runs; k++)
    add_plugin_warnings(out, json_object_get(e->runs[k].record, "plugin_identity"));
  return out;
}

json_t *rigor_context_json(const rigor_exp_analysis_t *e) {
  const json_t *r = e->record, *id = json_object_get(r, "identity");
  return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s?, s:o, s:o, s:o}",
                   "host", first_string(at(id, "host", NULL), at(id, "hostname", NULL)),
                   "cpu_model", first_string(at(id, "cpu_model", NULL), at(id, "cpu", "model")),
                   "cores", integer_or_null(at(id, "cores", NULL)), "threads",
                   integer_or_null(at(id, "threads", NULL)), "kernel", kernel_of(id),
                   "rigor_version",
                   first_string(at(r, "rigor", "version"), at(id, "rigor_version", NULL)),
                   "rigor_git", first_string(at(r, "rigor", "git"), at(id, "rigor_git", NULL)),
                   "created", first_string(at(r, "created", NULL), NULL), "config_hash",
                   first_string(at(r, "hash", NULL), NULL), "config_file",
                   first_string(at(r, "source", NULL), NULL), "results", e->source, "plugin",
                   first_string(at(r, "plugin", "name"), NULL), "plugin_version",
                   first_string(at(r, "plugin", "version"), NULL), "warnings", warnings_of(e));
}

typedef void (*field_fn)(const json_t *ctx, char *buf, size_t len);

static void put(char *buf, size_t len, const char *s) {
  snprintf(buf, len, "%s", s ? s : "-");
}

static void host(const json_t *c, char *buf, size_t len) {
  put(buf, len, str(json_object_get(c, "host")));
}

static void cpu(const json_t *c, char *buf, size_t len) {
  const char *model = str(json_object_get(c, "cpu_model"));
  const json_t *cores = json_object_get(c, "cores"), *threads = json_object_get(c, "threads");
  int n = snprintf(buf, len, "%s", model ? model : "-");
  if (json_is_integer(cores) && n >= 0 && (size_t)n < len)
    n += snprintf(buf + n, len - (size_t)n, ", %lld cores", (long long)json_integer_value(cores));
  if (json_is_integer(threads) && n >= 0 && (size_t)n < len)
    snprintf(buf + n, len - (size_t)n, ", %lld threads", (long long)json_integer_value(threads));
}

static void kernel(const json_t *c, char *buf, size_t len) {
  put(buf, len, str(json_object_get(c, "kernel")));
}

static void rigor(const json_t *c, char *buf, size_t len) {
  const char *v = str(json_object_get(c, "rigor_version")),
             *g = str(json_object_get(c, "rigor_git"));
  snprintf(buf, len, "%s%s%s%s", v ? v : "-", g ? " (git " : "", g ? g : "", g ? ")" : "");
}

static void date(const json_t *c, char *buf, size_t len) {
  put(buf, len, str(json_object_get(c, "created")));
}

static void config(const json_t *c, char *buf, size_t len) {
  const char *h = str(json_object_get(c, "config_hash")),
             *f = str(json_object_get(c, "config_file"));
  snprintf(buf, len, "%s%s%s%s", h ? h : "-", f ? " (" : "", f ? f : "", f ? ")" : "");
}

static void plugin(const json_t *c, char *buf, size_t len) {
  const char *p = str(json_object_get(c, "plugin")), *v = str(json_object_get(c, "plugin_version"));
  snprintf(buf, len, "%s%s%s", p ? p : "-", v ? " " : "", v ? v : "");
}

static void results(const json_t *c, char *buf, size_t len) {
  put(buf, len, str(json_object_get(c, "results")));
}

static const struct {
  const char *name;
  field_fn fn;
} fields[] = {{"host", host}, {"cpu", cpu},       {"kernel", kernel}, {"rigor", rigor},
              {"date", date}, {"config", config}, {"plugin", plugin}, {"results", results}};

rigor_table_t *rigor_context_table(const json_t *const *ctx, const char *const *sides, size_t n) {
  const char *h[8] = {"field", "value"};
  for (size_t s = 0; n > 1 && s < n && s < 7; s++)
    h[s + 1] = sides[s];
  size_t cols = 1 + (n > 1 ? (n < 7 ? n : 7) : 1);
  rigor_table_t *t = rigor_table_new("", cols, h);
  if (!t) return NULL;
  rigor_table_name(t, "context");
  char buf[512];
  for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
    long row = rigor_table_add_row(t);
    if (row < 0) break;
    rigor_table_set_text(t, (size_t)row, 0, fields[f].name);
    for (size_t s = 0; s + 1 < cols; s++) {
      fields[f].fn(ctx[s], buf, sizeof buf);
      rigor_table_set_text(t, (size_t)row, s + 1, buf);
    }
  }
  return t;
}

json_t *rigor_context_warning_lines(const json_t *ctx, const char *side) {
  json_t *out = json_array();
  size_t i;
  json_t *w;
  json_array_foreach(json_object_get(ctx, "warnings"), i, w) {
    char line[1024];
    snprintf(line, sizeof line, "%s%s%s: %s", side ? side : "", side ? ": " : "",
             str(json_object_get(w, "check")) ? str(json_object_get(w, "check")) : "?",
             str(json_object_get(w, "detail")) ? str(json_object_get(w, "detail")) : "");
    json_array_append_new(out, json_string(line));
  }
  return out;
}

void rigor_context_doc(rigor_doc_t *doc, const rigor_exp_analysis_t *e) {
  json_t *ctx = rigor_context_json(e);
  if (!ctx) return;
  const json_t *one[1] = {ctx};
  rigor_doc_context(doc, rigor_context_table(one, NULL, 1), rigor_context_warning_lines(ctx, NULL));
  json_decref(ctx);
}
