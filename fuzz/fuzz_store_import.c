/* The store's import on any bytes, into a SQLite store: an import either stores the file whole
 * or nothing of it, and importing a stored file again adds nothing. Anything else aborts. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "store.h"

static char db[256];
static unsigned inputs;

static void remove_db(void) {
  if (db[0]) unlink(db);
}

static size_t imports_in(rigor_store_t *s) {
  json_t *list = NULL;
  char err[1024];
  if (rigor_store_list(s, &list, err, sizeof err) != 0) abort();
  size_t n = json_array_size(list);
  json_decref(list);
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_file_write("results.jsonl", data, size);
  if (!db[0]) {
    snprintf(db, sizeof db, "%s", path);
    char *slash = strrchr(db, '/');
    snprintf(slash + 1, sizeof db - (size_t)(slash + 1 - db), "store.db");
    atexit(remove_db);
  }
  /* A fresh database now and then keeps each import's cost from growing with the last ones. */
  if (inputs++ % 256 == 0) remove_db();
  rigor_store_t *s = NULL;
  char err[4096];
  if (rigor_store_open(db, true, &s, err, sizeof err) != 0 ||
      rigor_store_migrate(s, 0, NULL, NULL, err, sizeof err) != 0)
    abort();
  size_t before = imports_in(s);
  rigor_store_import_opts_t o = {.dirty = -1};
  rigor_store_import_result_t r = {0};
  int rc = rigor_store_import(s, path, &o, &r, err, sizeof err);
  size_t after = imports_in(s);
  if (rc != 0) {
    if (!err[0] || after != before) abort(); /* a refusal says why and stores nothing */
  } else {
    rigor_store_import_result_t again = {0};
    if (rigor_store_import(s, path, &o, &again, err, sizeof err) != 0) abort();
    if (again.runs_added || again.samples_added || again.experiments_added) abort();
  }
  rigor_store_close(s);
  return 0;
}
