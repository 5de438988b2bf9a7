#include "resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "json_diff.h"
#include "reader.h"
#include "rigor/plugin.h"

/* What a scan needs of a file: its experiment and run records, and the attempt each sample of
 * experiment `name` names, noted as it streams past (samples are the bulk of a file). */
typedef struct scan_intake {
  const char *name;
  rigor_resume_t *rs;
  json_t *records;
  int (*stopped)(void);
} scan_intake_t;

static int keep_record(void *arg, json_t *rec, const char *type, size_t line) {
  (void)type, (void)line;
  scan_intake_t *in = arg;
  if (in->stopped && in->stopped()) return RIGOR_ECANCELED;
  return json_array_append(in->records, rec) == 0 ? 0 : RIGOR_ENOMEM;
}

static int note_sample(void *arg, const rigor_sample_t *s) {
  scan_intake_t *in = arg;
  if (in->stopped && in->stopped()) return RIGOR_ECANCELED;
  int64_t k = s->run < 0 ? 0 : s->run, att = s->attempt < 0 ? 0 : s->attempt;
  if (strcmp(s->experiment, in->name) == 0 && (size_t)k < in->rs->n_runs &&
      (uint32_t)att > in->rs->attempt[k])
    in->rs->attempt[k] = (uint32_t)att;
  return 0;
}

static int read_records(const char *path, const char *name, rigor_resume_t *rs, json_t **records,
                        bool *truncated, int (*stopped)(void), char *err, size_t errlen) {
  scan_intake_t in = {name, rs, json_array(), stopped};
  rigor_results_callbacks_t cb = {.sample = note_sample, .record = keep_record, .arg = &in};
  int rc = in.records ? rigor_results_read(path, &cb, truncated, err, errlen) : RIGOR_ENOMEM;
  if (rc)
    json_decref(in.records);
  else
    *records = in.records;
  return rc;
}

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

/* The size of the file up to and including its last newline. */
static off_t last_line_end(const char *path) {
  struct stat st;
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  if (fstat(fileno(f), &st) != 0 || st.st_size == 0) {
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
  return last_nl + 1;
}

static off_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_size : 0;
}

int rigor_resume_scan(const char *path, const char *name, const char *hash, const json_t *config,
                      size_t n_runs, int (*stopped)(void), rigor_resume_t *rs, char *err,
                      size_t errlen) {
  memset(rs, 0, sizeof *rs);
  rs->n_runs = n_runs;
  rs->experiments = json_object();
  rs->done = calloc(n_runs ? n_runs : 1, 1);
  rs->attempt = calloc(n_runs ? n_runs : 1, sizeof *rs->attempt);
  if (!rs->done || !rs->attempt) return RIGOR_ENOMEM;
  json_t *records = NULL;
  bool truncated = false;
  int read = read_records(path, name, rs, &records, &truncated, stopped, err, errlen);
  if (read == RIGOR_ECANCELED) {
    snprintf(err, errlen, "%s: stopped while reading it for --resume; nothing was changed", path);
    return RIGOR_ECANCELED;
  }
  if (read < 0) return RIGOR_ECONFIG;
  size_t i;
  json_t *rec;
  int rc = 0;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    const char *exp = json_string_value(json_object_get(rec, "experiment"));
    if (type && exp && strcmp(type, "experiment") == 0)
      json_object_set_new(rs->experiments, exp, json_true());
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
      if (!rs->plugin) rs->plugin = json_incref(json_object_get(rec, "plugin"));
      if (!rs->builds) rs->builds = json_incref(json_object_get(rec, "builds"));
    } else if (strcmp(type, "stop") == 0) {
      int reason = rigor_stop_reason_parse(json_string_value(json_object_get(rec, "reason")));
      if (reason >= 0 && rigor_stop_final((rigor_stop_reason_t)reason)) rs->stopped = true;
    } else if (indexed && strcmp(type, "run") == 0) {
      if ((uint32_t)att > rs->attempt[k]) rs->attempt[k] = (uint32_t)att;
      const char *st = json_string_value(json_object_get(rec, "status"));
      if (st && rigor_run_status_final(rigor_run_status_parse(st))) rs->done[k] = 1;
    }
  }
  json_decref(records);
  rs->keep_bytes = truncated ? last_line_end(path) : file_size(path);
  return rc;
}

void rigor_resume_free(rigor_resume_t *r) {
  free(r->done);
  free(r->attempt);
  json_decref(r->experiments);
  json_decref(r->plugin);
  json_decref(r->builds);
  memset(r, 0, sizeof *r);
}
