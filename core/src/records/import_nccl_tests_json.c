/* nccl-tests -J (src/util.cu, file version 3): {version, start_time, args: [argv...], env,
 * nccl_version, config: {nthreads, ngpus, minimum_bytes, ..., devices: [{rank, group, pid,
 * hostname, device, device_hex, device_info}]}, results: [{size, count, type, redop, root,
 * out_of_place: {time | cpu_time, alg_bw, bus_bw, nwrong}, out_of_place_per_iter: {...},
 * in_place: {...}, in_place_per_iter: {...}, actual_iterations}], out_of_bounds: {count, okay},
 * average_bus_bandwidth: {bandwidth, okay}, end_time}. One file is one run of one binary.
 * nccl-tests writes a NaN as the string "nan"; its booleans are the strings "true" and "false". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_nccl_tests.h"
#include "json_util.h"
#include "rigor/plugin.h"

/* A number as nccl-tests writes one: a JSON number, or "nan". */
static bool nccl_number(const json_t *v, double *out) {
  if (json_is_number(v)) {
    *out = json_number_value(v);
    return true;
  }
  if (json_is_string(v) && strcmp(json_string_value(v), "nan") == 0) {
    *out = NAN;
    return true;
  }
  return false;
}

static json_t *per_iteration(rigor_import_ctx_t *c, const json_t *pi, const char *at) {
  if (!json_is_object(pi)) return NULL;
  static const struct {
    const char *from, *to;
    double scale;
  } keys[] = {{"min_us", "min", 1e-6}, {"max_us", "max", 1e-6}, {"avg_us", "mean", 1e-6},
              {"p50_us", "p50", 1e-6}, {"p95_us", "p95", 1e-6}, {"p99_us", "p99", 1e-6},
              {"cv_pct", "cv", 1e-2}};
  json_t *it = json_object();
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    double v;
    if (nccl_number(json_object_get(pi, keys[k].from), &v))
      json_object_set_new(it, keys[k].to, rigor_json_real_or_null(v * keys[k].scale));
  }
  json_t *times = json_object_get(pi, "times_us");
  if (json_is_array(times)) {
    json_t *raw = json_array();
    size_t i;
    json_t *t;
    json_array_foreach(times, i, t) {
      double v;
      if (!nccl_number(t, &v)) {
        char item[256];
        snprintf(item, sizeof item, "%s.times_us[%zu]", at, i);
        rigor_import_fail(c, item, "is not a number");
        break;
      }
      json_array_append_new(raw, rigor_json_real_or_null(v * 1e-6));
    }
    json_object_set_new(it, "n", json_integer((json_int_t)json_array_size(raw)));
    json_object_set_new(it, "raw", raw);
  }
  return it;
}

static int read_measure(rigor_import_ctx_t *c, const json_t *res, const char *at, const char *key,
                        nccl_section_t *s, nccl_measure_t *m) {
  const json_t *o = json_object_get(res, key);
  if (!o || json_is_null(o)) return 0;
  char where[128];
  snprintf(where, sizeof where, "%s.%s", at, key);
  if (!json_is_object(o)) return rigor_import_fail(c, where, "is not an object");
  const json_t *time = json_object_get(o, "time");
  if (!time) {
    time = json_object_get(o, "cpu_time");
    if (time) s->cputime = true;
  }
  static const char *const names[] = {"time", "alg_bw", "bus_bw"};
  double *slots[] = {&m->time_us, &m->algbw_gbs, &m->busbw_gbs};
  const json_t *vals[] = {time, json_object_get(o, "alg_bw"), json_object_get(o, "bus_bw")};
  for (size_t k = 0; k < 3; k++)
    if (!nccl_number(vals[k], slots[k]))
      return rigor_import_fail(c, where, "\"%s\" is %s", names[k],
                               vals[k] ? "not a number" : "missing");
  const json_t *wrong = json_object_get(o, "nwrong");
  m->wrong = NAN;
  if (wrong && !json_is_null(wrong) && !nccl_number(wrong, &m->wrong))
    return rigor_import_fail(c, where, "\"nwrong\" is not a number");
  char pi_key[64], pi_at[192];
  snprintf(pi_key, sizeof pi_key, "%s_per_iter", key);
  snprintf(pi_at, sizeof pi_at, "%s.%s", at, pi_key);
  m->iterations = per_iteration(c, json_object_get(res, pi_key), pi_at);
  m->present = true;
  return c->rc;
}

static void copy_text(char *dst, size_t cap, const json_t *v) {
  if (json_is_string(v))
    snprintf(dst, cap, "%s", json_string_value(v));
  else if (json_is_integer(v))
    snprintf(dst, cap, "%lld", (long long)json_integer_value(v));
}

static int read_row(rigor_import_ctx_t *c, const json_t *res, size_t i, nccl_section_t *s) {
  char at[64];
  snprintf(at, sizeof at, "$.results[%zu]", i);
  if (!json_is_object(res)) return rigor_import_fail(c, at, "is not an object");
  if (!rigor_import_get(c, res, at, "size", JSON_INTEGER, false)) return c->rc;
  nccl_row_t *row = nccl_section_row(s);
  if (!row) return rigor_import_fail(c, at, "out of memory");
  row->where = i;
  row->size = (double)json_integer_value(json_object_get(res, "size"));
  const json_t *count = json_object_get(res, "count");
  row->count = json_is_integer(count) ? (double)json_integer_value(count) : NAN;
  copy_text(row->type, sizeof row->type, json_object_get(res, "type"));
  copy_text(row->redop, sizeof row->redop, json_object_get(res, "redop"));
  copy_text(row->root, sizeof row->root, json_object_get(res, "root"));
  /* The root is written as the table prints it, padded to six columns. */
  char *r = row->root + strspn(row->root, " ");
  memmove(row->root, r, strlen(r) + 1);
  if (read_measure(c, res, at, "out_of_place", s, &row->m[NCCL_OUT_OF_PLACE]) ||
      read_measure(c, res, at, "in_place", s, &row->m[NCCL_IN_PLACE]))
    return c->rc;
  if (!row->m[0].present && !row->m[1].present)
    return rigor_import_fail(c, at, "has neither \"out_of_place\" nor \"in_place\"");
  return 0;
}

static void read_devices(nccl_section_t *s, const json_t *devices) {
  size_t i;
  json_t *d;
  json_array_foreach(devices, i, d) {
    json_t *dev =
        json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?}", "rank", json_object_get(d, "rank"), "host",
                  json_object_get(d, "hostname"), "device", json_object_get(d, "device"), "bus_id",
                  json_object_get(d, "device_hex"), "name", json_object_get(d, "device_info"));
    json_t *group = json_object_get(d, "group");
    if (group) json_object_set(dev, "group", group);
    json_array_append(json_object_get(s->identity, "devices"), dev);
    json_t *with_pid = json_deep_copy(dev);
    json_t *pid = json_object_get(d, "pid");
    if (pid) json_object_set(with_pid, "pid", pid);
    json_array_append_new(json_object_get(s->run_detail, "ranks"), with_pid);
    json_decref(dev);
    json_t *host = json_object_get(d, "hostname");
    if (!json_object_get(s->identity, "host") && json_is_string(host))
      json_object_set(s->identity, "host", host);
  }
}

int nccl_read_json(rigor_import_ctx_t *c, const json_t *doc, nccl_section_t **out, size_t *n_out) {
  if (!json_is_object(doc)) return rigor_import_fail(c, "$", "is not an object");
  json_t *args = rigor_import_get(c, doc, "$", "args", JSON_ARRAY, true);
  json_t *config = rigor_import_get(c, doc, "$", "config", JSON_OBJECT, false);
  json_t *results = rigor_import_get(c, doc, "$", "results", JSON_ARRAY, false);
  json_t *devices = rigor_import_get(c, config, "$.config", "devices", JSON_ARRAY, true);
  if (c->rc) return c->rc;
  if (json_array_size(results) == 0) return rigor_import_fail(c, "$.results", "is empty");
  nccl_section_t *all = realloc(*out, (*n_out + 1) * sizeof *all);
  if (!all) return rigor_import_fail(c, NULL, "out of memory");
  *out = all;
  nccl_section_t *s = &all[(*n_out)++];
  memset(s, 0, sizeof *s);
  s->path = c->path;
  s->line = 1;
  const char *argv0 = json_string_value(json_array_get(args, 0));
  if (argv0) {
    const char *base = strrchr(argv0, '/');
    snprintf(s->program, sizeof s->program, "%s", base ? base + 1 : argv0);
  }
  s->settings = json_deep_copy(config);
  json_object_del(s->settings, "devices");
  s->identity = json_pack("{s:[]}", "devices");
  json_t *nccl = json_object_get(doc, "nccl_version");
  if (json_is_integer(nccl)) json_object_set(s->identity, "nccl_version", nccl);
  s->run_detail = json_pack("{s:[]}", "ranks");
  read_devices(s, devices);
  static const char *const kept[] = {"start_time", "end_time", "out_of_bounds",
                                     "average_bus_bandwidth"};
  for (size_t k = 0; k < sizeof kept / sizeof *kept; k++) {
    json_t *v = json_object_get(doc, kept[k]);
    if (v) json_object_set(s->run_detail, kept[k], v);
  }
  /* The summary is written after the table: without it the binary stopped early. */
  s->complete = json_object_get(doc, "out_of_bounds") != NULL;
  size_t i;
  json_t *res;
  json_array_foreach(results, i, res) {
    if (read_row(c, res, i, s)) return c->rc;
  }
  return 0;
}
