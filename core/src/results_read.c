#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "rigor/plugin.h"

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
  if (!json_is_string(json_object_get(rec, "type"))) {
    snprintf(err, errlen, "%s:%zu:1: record has no \"type\"", path, line);
    return RIGOR_EINVAL;
  }
  return 0;
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
