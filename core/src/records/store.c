#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errors.h"
#include "rigor/plugin.h"
#include "store_internal.h"

static bool has_prefix(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}

int rigor_store_open(const char *url, bool create, rigor_store_t **out, char *err, size_t errlen) {
  if (!url || !url[0] || !out) {
    snprintf(err, errlen, "no store given");
    return RIGOR_EINVAL;
  }
  *out = NULL;
  rigor_store_t *s = calloc(1, sizeof *s);
  if (!s) return RIGOR_ENOMEM;
  int rc;
  if (has_prefix(url, "postgresql://") || has_prefix(url, "postgres://"))
    rc = rigor__store_open_pg(url, s, err, errlen);
  else
    rc = rigor__store_open_sqlite(has_prefix(url, "sqlite:") ? url + 7 : url, create, s, err,
                                  errlen);
  if (rc) {
    rigor_store_close(s);
    return rc;
  }
  *out = s;
  return 0;
}

void rigor_store_close(rigor_store_t *s) {
  if (!s) return;
  if (s->ops) s->ops->close(s);
  free(s);
}

void rigor_store_url_redact(const char *url, char *out, size_t len) {
  const char *scheme = strstr(url, "://");
  const char *at = scheme ? strchr(scheme + 3, '@') : NULL;
  const char *colon = scheme ? strchr(scheme + 3, ':') : NULL;
  const char *slash = scheme ? strchr(scheme + 3, '/') : NULL;
  if (at && colon && colon < at && (!slash || at < slash))
    snprintf(out, len, "%.*s:***%s", (int)(colon - url), url, at);
  else
    snprintf(out, len, "%s", url);
  /* The password may also be a query parameter. */
  char *p = strstr(out, "password=");
  if (!p) return;
  p += strlen("password=");
  const char *rest = p + strcspn(p, "&");
  size_t tail = strlen(rest) + 1;
  if ((size_t)(p - out) + 3 + tail > len) return;
  memmove(p + 3, rest, tail);
  memcpy(p, "***", 3);
}

const char *rigor_store_kind(const rigor_store_t *s) {
  return s && s->ops ? s->ops->kind : "?";
}

int rigor__sql(rigor_store_t *s, const char *sql, int n, const char *const *params) {
  return s->ops->exec(s, sql, n, params, NULL, NULL);
}

static int first_int(void *ctx, int n, const char *const *v) {
  long long *out = ctx;
  if (n > 0 && v[0]) *out = strtoll(v[0], NULL, 10);
  return 0;
}

int rigor__sql_int(rigor_store_t *s, const char *sql, int n, const char *const *params,
                   long long *out) {
  *out = 0;
  return s->ops->exec(s, sql, n, params, first_int, out);
}

int rigor__begin(rigor_store_t *s) {
  return rigor__sql(s, s->ops->begin, 0, NULL);
}

int rigor__commit(rigor_store_t *s) {
  return rigor__sql(s, "COMMIT", 0, NULL);
}

void rigor__rollback(rigor_store_t *s) {
  char keep[sizeof s->message];
  memcpy(keep, s->message, sizeof keep);
  rigor__sql(s, "ROLLBACK", 0, NULL);
  memcpy(s->message, keep, sizeof keep);
}

int rigor__store_fail(rigor_store_t *s, int rc, const char *what, char *err, size_t errlen) {
  snprintf(err, errlen, "%s: %s", what, s->message[0] ? s->message : rigor_strerror(rc));
  return rc;
}

/* ---- versions and migrations ---------------------------------------------------------------- */

int rigor_store_version(rigor_store_t *s, int *version, char *err, size_t errlen) {
  const char *table[] = {"rigor_schema"};
  long long exists = 0, v = 0;
  int rc = rigor__sql_int(s, s->ops->table_exists, 1, table, &exists);
  if (!rc && exists) rc = rigor__sql_int(s, "SELECT max(version) FROM rigor_schema", 0, NULL, &v);
  if (rc) return rigor__store_fail(s, rc, "reading the schema version", err, errlen);
  *version = (int)v;
  return 0;
}

/* The statement with "@KEY@" replaced by the backend's auto-numbered key type. */
static char *dialect(const rigor_store_t *s, const char *sql) {
  const char *at = strstr(sql, "@KEY@");
  size_t n = strlen(sql) + strlen(s->ops->serial_key) + 1;
  char *out = malloc(n);
  if (!out) return NULL;
  if (!at) {
    snprintf(out, n, "%s", sql);
    return out;
  }
  snprintf(out, n, "%.*s%s%s", (int)(at - sql), sql, s->ops->serial_key, at + 5);
  return out;
}

static int apply(rigor_store_t *s, const rigor__migration_t *m, char *err, size_t errlen) {
  char what[96];
  snprintf(what, sizeof what, "migration to schema version %d", m->version);
  int rc = rigor__begin(s);
  if (rc) return rigor__store_fail(s, rc, what, err, errlen);
  for (const char *const *st = m->statements; !rc && *st; st++) {
    char *sql = dialect(s, *st);
    rc = sql ? rigor__sql(s, sql, 0, NULL) : RIGOR_ENOMEM;
    free(sql);
  }
  char version[16], now[32];
  snprintf(version, sizeof version, "%d", m->version);
  rigor_time_iso(now);
  const char *p[] = {version, m->description, now};
  if (!rc)
    rc = rigor__sql(s,
                    "INSERT INTO rigor_schema (version, description, applied_at)"
                    " VALUES ($1, $2, $3)",
                    3, p);
  if (!rc) rc = rigor__commit(s);
  if (rc) {
    rigor__rollback(s);
    return rigor__store_fail(s, rc, what, err, errlen);
  }
  return 0;
}

int rigor_store_migrate(rigor_store_t *s, int target, int *from, int *to, char *err,
                        size_t errlen) {
  if (target <= 0) target = RIGOR_STORE_SCHEMA_VERSION;
  if (target > RIGOR_STORE_SCHEMA_VERSION) {
    snprintf(err, errlen, "schema version %d is unknown to this rigor (it knows up to %d)", target,
             RIGOR_STORE_SCHEMA_VERSION);
    return RIGOR_EINVAL;
  }
  int v = 0;
  int rc = rigor_store_version(s, &v, err, errlen);
  if (rc) return rc;
  if (from) *from = v;
  if (v > RIGOR_STORE_SCHEMA_VERSION) {
    snprintf(err, errlen,
             "the store has schema version %d, newer than this rigor's %d: use a newer rigor", v,
             RIGOR_STORE_SCHEMA_VERSION);
    return RIGOR_EINVAL;
  }
  for (size_t i = 0; i < rigor__n_migrations; i++) {
    const rigor__migration_t *m = &rigor__migrations[i];
    if (m->version <= v || m->version > target) continue;
    if ((rc = apply(s, m, err, errlen))) return rc;
    v = m->version;
  }
  if (to) *to = v;
  return 0;
}

int rigor_store_require_current(rigor_store_t *s, char *err, size_t errlen) {
  int v = 0;
  int rc = rigor_store_version(s, &v, err, errlen);
  if (rc) return rc;
  if (v == RIGOR_STORE_SCHEMA_VERSION) return 0;
  if (v == 0)
    snprintf(err, errlen, "the database holds no rigor store yet (rigor store add creates one)");
  else if (v < RIGOR_STORE_SCHEMA_VERSION)
    snprintf(err, errlen,
             "the store has schema version %d, this rigor reads %d: run rigor store "
             "migrate",
             v, RIGOR_STORE_SCHEMA_VERSION);
  else
    snprintf(err, errlen, "the store has schema version %d, newer than this rigor's %d", v,
             RIGOR_STORE_SCHEMA_VERSION);
  return RIGOR_EINVAL;
}
