#include "resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "json_diff.h"
#include "reader.h"
#include "rigor/plugin.h"

/* The dotted paths (the first few) where two canonical configs differ. */
static void config_differences(const json_t *old_cfg, const json_t *new_cfg, char *out,
                               size_t cap) {
  json_t *diffs = rigor_json_diff(old_cfg, new_cfg, "");
  size_t used = 0, i;
  json_t *d;
  out[0] = '\0';
  json_array_foreach(diffs, i, d) {
    if (i == 6 || used >= cap) break;
    used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? ", " : "",
                             json_string_value(json_object_get(d, "path")));
  }
  json_decref(diffs);
}

/* Cuts the file after its last newline. */
static int cut_partial_line(const char *path) {
  struct stat st;
  FILE *f = fopen(path, "rb");
  if (!f) return RIGOR_EIO;
  if (stat(path, &st) != 0 || st.st_size == 0) {
    fclose(f);
    return 0;
  }
  off_t last_nl = -1, pos = st.st_size;
  char buf[4096];
  while (pos > 0 && last_nl < 0) {
    off_t chunk = pos > (off_t)sizeof buf ? (off_t)sizeof buf : pos;
    pos -= chunk;
    fseeko(f, pos, SEEK_SET);
    size_t got = fread(buf, 1, (size_t)chunk, f);
    for (off_t j = (off_t)got - 1; j >= 0; j--)
      if (buf[j] == '\n') {
        last_nl = pos + j;
        break;
      }
  }
  fclose(f);
  return truncate(path, last_nl + 1) == 0 ? 0 : RIGOR_EIO;
}

int rigor_resume_scan(const char *path, const char *name, const char *hash, const json_t *config,
                      size_t n_runs, rigor_resume_t *rs, char *err, size_t errlen) {
  memset(rs, 0, sizeof *rs);
  rs->n_runs = n_runs;
  rs->done = calloc(n_runs ? n_runs : 1, 1);
  rs->attempt = calloc(n_runs ? n_runs : 1, sizeof *rs->attempt);
  if (!rs->done || !rs->attempt) return RIGOR_ENOMEM;
  json_t *records = NULL;
  bool truncated = false;
  if (rigor_results_load(path, &records, &truncated, err, errlen) < 0) return RIGOR_ECONFIG;
  size_t i;
  json_t *rec;
  int rc = 0;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    const char *exp = json_string_value(json_object_get(rec, "experiment"));
    if (!type || !exp || strcmp(exp, name) != 0) continue;
    json_int_t k = json_integer_value(json_object_get(rec, "run"));
    json_int_t att = json_integer_value(json_object_get(rec, "attempt"));
    bool indexed = k >= 0 && (size_t)k < n_runs;
    if (strcmp(type, "experiment") == 0) {
      const char *had = json_string_value(json_object_get(rec, "hash"));
      if (!had || strcmp(had, hash) != 0) {
        char diff[512];
        config_differences(json_object_get(rec, "config"), config, diff, sizeof diff);
        snprintf(err, errlen,
                 "%s: cannot resume experiment '%s': the file holds experiment hash %.12s…, the "
                 "config now gives %.12s… (changed: %s); use --force to start over or another -o",
                 path, name, had ? had : "(none)", hash, diff[0] ? diff : "details");
        rc = RIGOR_ECONFIG;
        break;
      }
      rs->have_experiment = true;
    } else if (strcmp(type, "stop") == 0) {
      int reason = rigor_stop_reason_parse(json_string_value(json_object_get(rec, "reason")));
      if (reason >= 0 && rigor_stop_final((rigor_stop_reason_t)reason)) rs->stopped = true;
    } else if (indexed && (strcmp(type, "run") == 0 || strcmp(type, "sample") == 0)) {
      if ((uint32_t)att > rs->attempt[k]) rs->attempt[k] = (uint32_t)att;
      const char *st = json_string_value(json_object_get(rec, "status"));
      if (strcmp(type, "run") == 0 && st && rigor_run_status_final(rigor_run_status_parse(st)))
        rs->done[k] = 1;
    }
  }
  json_decref(records);
  if (rc == 0 && truncated && cut_partial_line(path) != 0) {
    snprintf(err, errlen, "%s: cannot cut its half-written last line", path);
    rc = RIGOR_EIO;
  }
  return rc;
}

void rigor_resume_free(rigor_resume_t *r) {
  free(r->done);
  free(r->attempt);
  memset(r, 0, sizeof *r);
}
