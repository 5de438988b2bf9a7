/* The importers by name, and writing what they convert as one results file, whole or not at
 * all. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "rigor/plugin.h"
#include "writer.h"

int rigor_import_nccl_tests(const char *const *paths, size_t n, json_t *records, char *err,
                            size_t errlen);
int rigor_import_hyperfine(const char *const *paths, size_t n, json_t *records, char *err,
                           size_t errlen);
int rigor_import_google_benchmark(const char *const *paths, size_t n, json_t *records, char *err,
                                  size_t errlen);
int rigor_import_pyperf(const char *const *paths, size_t n, json_t *records, char *err,
                        size_t errlen);

const rigor_importer_t rigor_importers[] = {
    {"nccl-tests", "an nccl-tests binary's output, or its -J JSON", rigor_import_nccl_tests},
    {"hyperfine", "hyperfine --export-json", rigor_import_hyperfine},
    {"google-benchmark", "Google Benchmark --benchmark_out (JSON)", rigor_import_google_benchmark},
    {"pyperf", "a pyperf JSON file (-o, or pyperf convert)", rigor_import_pyperf},
    {NULL, NULL, NULL},
};

/* Names the rigor that imports in each experiment record and counts what there is. */
static void stamp_and_count(json_t *records, const rigor_import_opts_t *o,
                            rigor_import_counts_t *c) {
  size_t i;
  json_t *rec;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    if (!type) continue;
    if (strcmp(type, "experiment") == 0) {
      c->experiments++;
      json_object_set_new(
          rec, "rigor", json_pack("{s:s, s:s}", "version", o->rigor_version, "git", o->rigor_git));
      size_t k;
      json_t *note;
      json_array_foreach(json_object_get(json_object_get(rec, "source"), "notes"), k, note) {
        bool known = false;
        size_t j;
        json_t *seen;
        json_array_foreach(c->notes, j, seen) known = known || json_equal(seen, note);
        if (!known) json_array_append(c->notes, note);
      }
    } else if (strcmp(type, "run") == 0) {
      c->runs++;
    } else if (strcmp(type, "sample") == 0) {
      c->samples++;
    }
  }
}

/* Experiments of one results file are told apart by name. */
static int refuse_same_names(const json_t *records, char *err, size_t errlen) {
  json_t *seen = json_object();
  size_t i;
  json_t *rec;
  int rc = 0;
  json_array_foreach(records, i, rec) {
    const char *type = json_string_value(json_object_get(rec, "type"));
    if (rc || !type || strcmp(type, "experiment") != 0) continue;
    const char *name = json_string_value(json_object_get(rec, "name"));
    const char *file = json_string_value(json_object_get(json_object_get(rec, "source"), "file"));
    json_t *before = json_object_get(seen, name);
    if (before) {
      snprintf(err, errlen,
               "%s and %s both give an experiment named '%s': import them into separate files",
               json_string_value(before), file, name);
      rc = RIGOR_EINVAL;
    }
    json_object_set_new(seen, name, json_string(file));
  }
  json_decref(seen);
  return rc;
}

/* A temporary file beside `out`, so that the rename is within one file system. */
static int temp_beside(const char *out, char *tmp, size_t cap, char *err, size_t errlen) {
  if ((size_t)snprintf(tmp, cap, "%s.import-XXXXXX", out) >= cap) {
    snprintf(err, errlen, "%s: the path is too long", out);
    return RIGOR_ECONFIG;
  }
  int fd = mkstemp(tmp);
  if (fd < 0) {
    snprintf(err, errlen, "cannot write beside %s: %s", out, strerror(errno));
    return RIGOR_ECONFIG;
  }
  fchmod(fd, 0644);
  close(fd);
  return 0;
}

static int write_records(const json_t *records, const char *tmp, char *err, size_t errlen) {
  rigor_results_writer_t w;
  int rc = rigor_results_open(&w, tmp, err, errlen);
  if (rc) return rc;
  size_t i;
  json_t *rec;
  json_array_foreach(records, i, rec) {
    if ((rc = rigor_results_append(&w, rec, err, errlen))) break;
  }
  if (!rc) rc = rigor_results_sync(&w, err, errlen);
  rigor_results_close(&w);
  return rc;
}

int rigor_import_write(const rigor_importer_t *imp, const char *const *paths, size_t n,
                       const rigor_import_opts_t *o, rigor_import_counts_t *counts, char *err,
                       size_t errlen) {
  *counts = (rigor_import_counts_t){.notes = json_array()};
  int rc = rigor_results_check_path(o->out, err, errlen);
  if (rc) return rc;
  struct stat st;
  if (!o->replace && lstat(o->out, &st) == 0) {
    snprintf(err, errlen, "%s exists: a results file is not overwritten (--force replaces it)",
             o->out);
    return RIGOR_ECONFIG;
  }
  for (size_t i = 0; i < n; i++)
    if (rigor_same_file(paths[i], o->out)) {
      snprintf(err, errlen, "%s is both an input and the output", o->out);
      return RIGOR_ECONFIG;
    }
  json_t *records = json_array();
  if (!records) return RIGOR_ENOMEM;
  rc = imp->convert(paths, n, records, err, errlen);
  if (!rc && json_array_size(records) == 0) {
    snprintf(err, errlen, "%s: nothing to import", paths[0]);
    rc = RIGOR_EINVAL;
  }
  if (!rc) rc = refuse_same_names(records, err, errlen);
  char tmp[4096];
  if (!rc) {
    stamp_and_count(records, o, counts);
    rc = temp_beside(o->out, tmp, sizeof tmp, err, errlen);
    if (!rc) {
      rc = write_records(records, tmp, err, errlen);
      if (!rc && rename(tmp, o->out) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", o->out, strerror(errno));
        rc = RIGOR_ECONFIG;
      }
      if (rc) unlink(tmp);
    }
  }
  json_decref(records);
  return rc;
}
