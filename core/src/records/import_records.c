/* The records an import writes, built through format.h like the runner's, and the refusals every
 * importer words the same way. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "digest.h"
#include "format.h"
#include "import.h"
#include "json_util.h"
#include "rigor/plugin.h"

static json_t *string_or_null(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *sequential_blocks(uint32_t blocks, size_t n_variants) {
  json_t *all = json_array();
  for (uint32_t b = 0; b < blocks; b++) {
    json_t *row = json_array();
    for (size_t v = 0; v < n_variants; v++)
      json_array_append_new(row, json_integer((json_int_t)v));
    json_array_append_new(all, row);
  }
  return all;
}

/* The source member: one file as {file, sha256}; several also listed in `files`. */
static json_t *source_of(const rigor_import_experiment_t *x) {
  json_t *first = json_array_get(x->files, 0);
  json_t *src =
      json_pack("{s:s, s:o, s:O, s:O}", "tool", x->tool, "version", string_or_null(x->version),
                "file", json_object_get(first, "file"), "sha256", json_object_get(first, "sha256"));
  if (json_array_size(x->files) > 1) json_object_set(src, "files", x->files);
  json_object_set(src, "notes", x->notes ? x->notes : json_array());
  return src;
}

json_t *rigor_import_experiment_record(rigor_import_experiment_t *x) {
  size_t n_variants = json_array_size(x->variants);
  json_t *axes = x->axes ? x->axes : json_array();
  json_t *config = json_pack(
      "{s:i, s:s, s:s, s:O, s:{s:O, s:[], s:[]}, s:{s:s, s:i, s:i, s:b}}", "schema", 1, "name",
      x->name, "plugin", x->tool, "settings", x->settings, "matrix", "axes", axes, "zip", "exclude",
      "order", "design", "sequential", "replicates", (int)x->blocks, "seed", 0, "randomize", 0);
  char hash[65] = "";
  rigor_canonical_sha256(config, hash);
  json_t *schedule =
      json_pack("{s:s, s:i, s:i, s:b, s:i, s:b, s:o}", "design", "sequential", "seed", 0,
                "replicates", (int)x->blocks, "randomize", 0, "square_rows", 0, "incomplete", 0,
                "blocks", sequential_blocks(x->blocks, n_variants));
  json_t *plugin =
      json_pack("{s:s, s:o, s:[], s:o}", "name", x->tool, "version", string_or_null(x->version),
                "params", "metrics", x->metrics ? json_incref(x->metrics) : json_array());
  rigor_experiment_record_t rec = {
      .name = x->name,
      .hash = hash,
      .config = config,
      .variants = x->variants,
      .schedule = schedule,
      .plugin = plugin,
      .identity = x->identity ? json_incref(x->identity) : json_object(),
      .checks = json_array(),
      .rigor_version = "", /* rigor_import_write names the rigor that imports */
      .rigor_git = "",
  };
  json_t *out = config && schedule && hash[0] ? rigor_record_experiment(&rec) : NULL;
  if (out) {
    /* No clock of rigor's timed these runs, and the record is made when the source says it
     * ran, so that importing the same file twice gives the same record. */
    json_object_del(out, "clock");
    json_object_set_new(out, "created", string_or_null(x->created));
    json_object_set_new(out, "source", source_of(x));
  } else {
    json_decref(plugin);
    json_decref(rec.identity);
    json_decref(rec.checks);
  }
  json_decref(config);
  json_decref(schedule);
  if (!x->axes) json_decref(axes);
  return out;
}

rigor_import_sample_t rigor_import_sample_init(const char *experiment) {
  return (rigor_import_sample_t){.experiment = experiment,
                                 .point_label = "",
                                 .status = "ok",
                                 .window = "wall",
                                 .time_s = NAN,
                                 .wall_s = NAN,
                                 .cputime_s = NAN,
                                 .iters = NAN,
                                 .agg = NAN,
                                 .bytes = NAN,
                                 .bus_factor = NAN,
                                 .bytes_per_s = NAN,
                                 .busbw_bytes_per_s = NAN};
}

/* A count when it is one (iterations, bytes), else a real or null. */
static json_t *number(double v) {
  if (isfinite(v) && v == floor(v) && fabs(v) < 9e15) return json_integer((json_int_t)v);
  return rigor_json_real_or_null(v);
}

json_t *rigor_import_sample_record(const rigor_import_sample_t *s) {
  json_t *rec = rigor_record_new("sample", s->experiment);
  json_object_set_new(rec, "cycle", json_integer(s->cycle));
  json_object_set_new(rec, "point", json_integer(s->point));
  json_object_set_new(rec, "point_label", json_string(s->point_label));
  json_object_set_new(rec, "point_params", s->point_params ? s->point_params : json_object());
  json_object_set_new(rec, "status", json_string(s->status));
  json_object_set_new(rec, "window", json_string(s->window));
  json_object_set_new(rec, "time_s", rigor_json_real_or_null(s->time_s));
  json_object_set_new(rec, "wall_s", rigor_json_real_or_null(s->wall_s));
  json_object_set_new(rec, "cputime_s", rigor_json_real_or_null(s->cputime_s));
  json_object_set_new(rec, "iters", number(s->iters));
  json_object_set_new(rec, "agg", number(s->agg));
  json_object_set_new(rec, "bytes", number(s->bytes));
  json_object_set_new(rec, "flops", json_null());
  json_object_set_new(rec, "bus_factor", rigor_json_real_or_null(s->bus_factor));
  json_object_set_new(
      rec, "rates",
      json_pack("{s:o, s:n, s:o}", "bytes_per_s", rigor_json_real_or_null(s->bytes_per_s),
                "flops_per_s", "busbw_bytes_per_s", rigor_json_real_or_null(s->busbw_bytes_per_s)));
  json_object_set_new(rec, "check", s->check ? s->check : json_null());
  json_object_set_new(rec, "metrics", s->metrics ? s->metrics : json_object());
  json_object_set_new(rec, "iterations", json_null());
  json_object_set_new(rec, "ranks", json_null());
  if (s->extra) json_object_update(rec, s->extra);
  json_decref(s->extra);
  rigor_record_stamp(rec, s->experiment, s->run, 1, s->variant);
  return rec;
}

uint32_t rigor_import_run_index(const rigor_import_run_t *r) {
  return r->block * r->n_variants + r->variant;
}

json_t *rigor_import_run_record(const rigor_import_run_t *r) {
  rigor_run_record_t x = {
      .experiment = r->experiment,
      .label = r->label,
      .run = rigor_import_run_index(r),
      .attempt = 1,
      .block = r->block,
      .position = r->variant,
      .variant = r->variant,
      .status = rigor_run_status_parse(r->status),
      .reason = r->reason,
      .exit_code = r->exit_code,
      .start = r->start ? r->start : "",
      .end = r->end ? r->end : "",
      .elapsed_s = r->elapsed_s,
      .plugin_identity = r->identity,
      .env_pad = -1,
  };
  json_t *rec = rigor_record_run(&x);
  json_object_set_new(rec, "start", string_or_null(r->start));
  json_object_set_new(rec, "end", string_or_null(r->end));
  json_object_set_new(rec, "elapsed_s", rigor_json_real_or_null(r->elapsed_s));
  return rec;
}

json_t *rigor_import_file_entry(const char *path, char *err, size_t errlen) {
  char sha[65];
  if (rigor_file_sha256(path, sha)) {
    snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
    return NULL;
  }
  return json_pack("{s:s, s:s}", "file", path, "sha256", sha);
}

json_t *rigor_import_load_json(const char *path, char *err, size_t errlen) {
  json_error_t je;
  json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
  if (!doc) {
    if (je.line > 0)
      snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
    else
      snprintf(err, errlen, "%s: %s", path, je.text);
  }
  return doc;
}

int rigor_import_fail(rigor_import_ctx_t *c, const char *json_path, const char *fmt, ...) {
  if (c->rc) return c->rc;
  int n = snprintf(c->err, c->errlen, "%s: %s%s", c->path, json_path ? json_path : "",
                   json_path ? ": " : "");
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->errlen) vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return c->rc = RIGOR_EINVAL;
}

int rigor_import_fail_line(rigor_import_ctx_t *c, size_t line, const char *fmt, ...) {
  if (c->rc) return c->rc;
  int n = snprintf(c->err, c->errlen, "%s:%zu: ", c->path, line);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->errlen) vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return c->rc = RIGOR_EINVAL;
}

static const char *type_name(json_type type) {
  switch (type) {
  case JSON_OBJECT:
    return "an object";
  case JSON_ARRAY:
    return "an array";
  case JSON_STRING:
    return "a string";
  case JSON_INTEGER:
    return "an integer";
  case JSON_REAL:
    return "a number";
  case JSON_TRUE:
  case JSON_FALSE:
    return "a boolean";
  default:
    return "null";
  }
}

static bool has_type(const json_t *v, json_type type) {
  if (type == JSON_REAL) return json_is_number(v);
  if (type == JSON_TRUE || type == JSON_FALSE) return json_is_boolean(v);
  return json_typeof(v) == type;
}

json_t *rigor_import_get(rigor_import_ctx_t *c, const json_t *obj, const char *json_path,
                         const char *key, json_type type, bool optional) {
  json_t *v = json_object_get(obj, key);
  if ((!v || json_is_null(v)) && optional) return NULL;
  if (v && has_type(v, type)) return v;
  rigor_import_fail(c, json_path, "\"%s\" %s %s", key, v ? "is not" : "is missing, expected",
                    type_name(type));
  return NULL;
}

const char *rigor_import_stem(const char *path, const char *suffix, char *buf, size_t cap) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strlen(base), sl = suffix ? strlen(suffix) : 0;
  if (sl && len > sl && strcmp(base + len - sl, suffix) == 0) len -= sl;
  snprintf(buf, cap, "%.*s", (int)len, base);
  return buf;
}
