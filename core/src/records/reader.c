#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "bounds.h"
#include "reader.h"
#include "rigor/plugin.h"

/* Readers use these members as array indices, so each is bounded by what a config can produce;
 * a larger value is a damaged file, not a reason to allocate gigabytes. */
typedef struct index_member {
  const char *name;
  json_int_t min, max;
} index_member_t;

static const index_member_t index_members[] = {
    {"run", 0, RIGOR_MAX_RUNS - 1},          {"attempt", 0, INT32_MAX},
    {"variant", 0, RIGOR_MAX_VARIANTS - 1},  {"block", 0, RIGOR_MAX_RUNS - 1},
    {"position", 0, RIGOR_MAX_VARIANTS - 1}, {"cycle", 0, INT32_MAX},
    {"point", 0, RIGOR_MAX_POINTS - 1},
};

static const char *const record_types[] = {"experiment", "run", "sample", "telemetry", "stop"};

static int check_indices(const json_t *rec, const char *path, size_t line, char *err,
                         size_t errlen) {
  for (size_t i = 0; i < sizeof index_members / sizeof *index_members; i++) {
    const index_member_t *m = &index_members[i];
    const json_t *v = json_object_get(rec, m->name);
    if (!v || json_is_null(v)) continue;
    if (!json_is_integer(v) || json_integer_value(v) < m->min || json_integer_value(v) > m->max) {
      snprintf(err, errlen, "%s:%zu:1: \"%s\" must be an integer from %lld to %lld", path, line,
               m->name, (long long)m->min, (long long)m->max);
      return RIGOR_EINVAL;
    }
  }
  return 0;
}

static int check_record(const json_t *rec, const char *path, size_t line, char *err,
                        size_t errlen) {
  if (!json_is_object(rec)) {
    snprintf(err, errlen, "%s:%zu:1: a record must be a JSON object", path, line);
    return RIGOR_EINVAL;
  }
  const char *schema = json_string_value(json_object_get(rec, "schema"));
  if (!schema || strcmp(schema, RIGOR_RESULT_SCHEMA) != 0) {
    snprintf(err, errlen, "%s:%zu:1: unsupported schema '%s' (expected '%s')", path, line,
             schema ? schema : "(missing)", RIGOR_RESULT_SCHEMA);
    return RIGOR_EINVAL;
  }
  const char *type = json_string_value(json_object_get(rec, "type"));
  if (!type) {
    snprintf(err, errlen, "%s:%zu:1: record has no \"type\"", path, line);
    return RIGOR_EINVAL;
  }
  size_t t = 0, n_types = sizeof record_types / sizeof *record_types;
  while (t < n_types && strcmp(type, record_types[t]) != 0)
    t++;
  if (t == n_types) {
    snprintf(err, errlen, "%s:%zu:1: unknown record type '%s'", path, line, type);
    return RIGOR_EINVAL;
  }
  if (!json_is_string(json_object_get(rec, "experiment"))) {
    snprintf(err, errlen, "%s:%zu:1: %s record has no \"experiment\" name", path, line, type);
    return RIGOR_EINVAL;
  }
  return check_indices(rec, path, line, err, errlen);
}

int rigor_results_load(const char *path, json_t **records, bool *truncated, char *err,
                       size_t errlen) {
  if (!path || !records) return RIGOR_EINVAL;
  *records = NULL;
  if (truncated) *truncated = false;
  FILE *f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    snprintf(err, errlen, "%s: cannot open results file: %s", path, strerror(e));
    return e == ENOENT ? RIGOR_ENOENT : RIGOR_EIO;
  }
  json_t *all = json_array();
  char *buf = NULL;
  size_t cap = 0, line = 0;
  ssize_t len;
  int rc = 0;
  while ((len = getline(&buf, &cap, f)) >= 0) {
    line++;
    bool has_newline = len > 0 && buf[len - 1] == '\n';
    size_t body = (size_t)len - (has_newline ? 1 : 0);
    size_t start = 0;
    while (start < body && (buf[start] == ' ' || buf[start] == '\t' || buf[start] == '\r'))
      start++;
    if (start == body) continue;
    json_error_t jerr;
    json_t *rec = json_loadb(buf + start, body - start, 0, &jerr);
    if (!rec) {
      if (!has_newline && fgetc(f) == EOF) {
        if (truncated) *truncated = true;
        break;
      }
      snprintf(err, errlen, "%s:%zu:%d: %s", path, line,
               jerr.column > 0 ? jerr.column + (int)start : 1 + (int)start, jerr.text);
      rc = RIGOR_EINVAL;
      break;
    }
    rc = check_record(rec, path, line, err, errlen);
    if (rc) {
      json_decref(rec);
      break;
    }
    json_array_append_new(all, rec);
  }
  if (rc == 0 && ferror(f)) {
    snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
    rc = RIGOR_EIO;
  }
  free(buf);
  fclose(f);
  if (rc) {
    json_decref(all);
    return rc;
  }
  *records = all;
  return 0;
}
