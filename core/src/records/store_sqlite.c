#include <errno.h>
#include <sys/statvfs.h>
#include <sys/resource.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "rigor/plugin.h"
#include "store_internal.h"
#include "file_kind.h"

/* Prepared statements are kept by their text: an import runs the same few inserts thousands of
 * times, and preparing each again would cost more than the insert. */
#define CACHE_SLOTS 16

typedef struct stmt_cache {
  char *sql[CACHE_SLOTS];
  sqlite3_stmt *st[CACHE_SLOTS];
  int *slot_of[CACHE_SLOTS]; /* $k's binding slot, k from 1; SQLite finds names by a linear scan */
  size_t next;
} stmt_cache_t;

/* Why a write failed where SQLite keeps only "disk I/O error": the system's errno when SQLite
 * kept it, else what the file's device and the process's limits say now. */
static const char *write_cause(sqlite3 *db, int code) {
  int e = sqlite3_system_errno(db);
  if (e == ENOSPC || code == SQLITE_FULL) return "no space left on the device";
  if (e == EDQUOT) return "the disk quota is used up";
  if (e == EFBIG) return "the store file reached the file size limit (ulimit -f)";
  if (code != SQLITE_IOERR || e != 0) return NULL;
  const char *path = sqlite3_db_filename(db, "main");
  struct statvfs fs;
  if (path && *path && statvfs(path, &fs) == 0 && fs.f_bavail == 0)
    return "no space left on the device";
  struct rlimit lim;
  struct stat st;
  if (path && *path && getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
      stat(path, &st) == 0 && (rlim_t)st.st_size + 65536 > lim.rlim_cur)
    return "the store file reached the file size limit (ulimit -f)";
  return NULL;
}

static int fail(rigor_store_t *s) {
  const char *cause = write_cause(s->db, sqlite3_extended_errcode(s->db) & 0xff);
  if (cause)
    snprintf(s->message, sizeof s->message, "%s (%s)", cause, sqlite3_errmsg(s->db));
  else
    snprintf(s->message, sizeof s->message, "%s", sqlite3_errmsg(s->db));
  return RIGOR_EIO;
}

static sqlite3_stmt *prepared(rigor_store_t *s, const char *sql, const int **slot_of) {
  stmt_cache_t *c = s->cache;
  for (size_t i = 0; i < CACHE_SLOTS; i++)
    if (c->sql[i] && strcmp(c->sql[i], sql) == 0) {
      *slot_of = c->slot_of[i];
      return c->st[i];
    }
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
    return NULL;
  size_t slot = c->next++ % CACHE_SLOTS;
  sqlite3_finalize(c->st[slot]);
  free(c->sql[slot]);
  free(c->slot_of[slot]);
  int n = sqlite3_bind_parameter_count(st);
  c->sql[slot] = strdup(sql);
  c->st[slot] = st;
  c->slot_of[slot] = calloc((size_t)n + 1, sizeof(int));
  if (!c->sql[slot] || !c->slot_of[slot]) {
    sqlite3_finalize(st);
    free(c->sql[slot]), free(c->slot_of[slot]);
    c->st[slot] = NULL, c->sql[slot] = NULL, c->slot_of[slot] = NULL;
    return NULL;
  }
  for (int k = 1; k <= n; k++) {
    const char *name = sqlite3_bind_parameter_name(st, k);
    long at = name && name[0] == '$' ? strtol(name + 1, NULL, 10) : 0;
    if (at >= 1 && at <= n) c->slot_of[slot][at] = k;
  }
  *slot_of = c->slot_of[slot];
  return st;
}

static int sqlite_exec(rigor_store_t *s, const char *sql, int n, const char *const *params,
                       rigor__row_fn fn, void *ctx) {
  const int *slot_of = NULL;
  sqlite3_stmt *st = prepared(s, sql, &slot_of);
  if (!st) return fail(s);
  int rc = 0, slots = sqlite3_bind_parameter_count(st);
  for (int i = 0; i < n && !rc; i++) {
    int at = i + 1 <= slots ? slot_of[i + 1] : 0;
    if (at == 0) continue;
    int b = params[i] ? sqlite3_bind_text(st, at, params[i], -1, SQLITE_TRANSIENT)
                      : sqlite3_bind_null(st, at);
    if (b != SQLITE_OK) rc = fail(s);
  }
  int step;
  while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
    if (!fn) continue;
    int cols = sqlite3_column_count(st);
    const char *values[32];
    if (cols > 32) cols = 32;
    for (int k = 0; k < cols; k++)
      values[k] = (const char *)sqlite3_column_text(st, k);
    rc = fn(ctx, cols, values);
  }
  if (!rc && step != SQLITE_DONE) rc = fail(s);
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  return rc;
}

static void sqlite_close(rigor_store_t *s) {
  stmt_cache_t *c = s->cache;
  for (size_t i = 0; c && i < CACHE_SLOTS; i++) {
    sqlite3_finalize(c->st[i]);
    free(c->sql[i]);
    free(c->slot_of[i]);
  }
  free(c);
  sqlite3_close(s->db);
}

static const rigor__store_ops_t sqlite_ops = {
    .kind = "sqlite",
    .serial_key = "INTEGER PRIMARY KEY",
    .begin = "BEGIN IMMEDIATE",
    .table_exists = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1",
    .exec = sqlite_exec,
    .close = sqlite_close,
};

int rigor__store_open_sqlite(const char *path, bool create, rigor_store_t *s, char *err,
                             size_t errlen) {
  /* SQLite would open a FIFO or a folder and then fail with "disk I/O error" or "unable to
   * open": the path is named for what it is, in the words every command uses. */
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "is %s, not a store (a SQLite file, which rigor store add creates)",
             rigor_file_kind(st.st_mode));
    return RIGOR_EINVAL;
  }
  sqlite3 *db = NULL;
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path, &db, flags, NULL);
  if (rc != SQLITE_OK) {
    bool missing = rc == SQLITE_CANTOPEN && !create;
    snprintf(err, errlen, "%s",
             missing ? "no such store (rigor store add creates it)"
                     : (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
    sqlite3_close(db);
    return missing ? RIGOR_ENOENT : RIGOR_EIO;
  }
  s->ops = &sqlite_ops;
  s->db = db;
  s->cache = calloc(1, sizeof(stmt_cache_t));
  if (!s->cache) return RIGOR_ENOMEM;
  /* Another process importing holds the write lock for one transaction: wait for it. */
  sqlite3_busy_timeout(db, 30000);
  if (rigor__sql(s, "PRAGMA foreign_keys = ON", 0, NULL)) {
    snprintf(err, errlen, "%s", s->message);
    return RIGOR_EIO;
  }
  return 0;
}
