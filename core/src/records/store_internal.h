/* Internals shared by the store's files: the backend table each database fills, and the SQL
 * helpers written once over it. Statements use $1, $2, ... for their parameters, which both
 * databases accept; every parameter travels as text (NULL for SQL NULL) and every result column
 * comes back as text. */
#ifndef RIGOR_STORE_INTERNAL_H
#define RIGOR_STORE_INTERNAL_H

#include <stddef.h>

#include "store.h"

/* One result row; a non-zero return stops the statement and becomes its result. */
typedef int (*rigor__row_fn)(void *ctx, int n_cols, const char *const *values);

typedef struct rigor__store_ops {
  const char *kind;
  /* The column type of an auto-numbered 64-bit primary key. */
  const char *serial_key;
  /* Starts a write transaction. */
  const char *begin;
  /* A query with one parameter, the table name, that returns a row when the table exists. */
  const char *table_exists;
  int (*exec)(rigor_store_t *s, const char *sql, int n, const char *const *params, rigor__row_fn fn,
              void *ctx);
  void (*close)(rigor_store_t *s);
} rigor__store_ops_t;

struct rigor_store {
  const rigor__store_ops_t *ops;
  void *db;
  void *cache;        /* the backend's own (prepared statements) */
  char message[1024]; /* the database's last error */
};

/* store_sqlite.c, store_pg.c: open a connection. */
int rigor__store_open_sqlite(const char *path, bool create, rigor_store_t *s, char *err,
                             size_t errlen);
int rigor__store_open_pg(const char *url, rigor_store_t *s, char *err, size_t errlen);

/* A statement without result rows. */
int rigor__sql(rigor_store_t *s, const char *sql, int n, const char *const *params);
/* A statement whose first column of its first row is an integer (*out = 0 without a row). */
int rigor__sql_int(rigor_store_t *s, const char *sql, int n, const char *const *params,
                   long long *out);
/* Begin, commit and roll back a write transaction. */
int rigor__begin(rigor_store_t *s);
int rigor__commit(rigor_store_t *s);
void rigor__rollback(rigor_store_t *s);
/* "what: the database's message" into err; returns rc. */
int rigor__store_fail(rigor_store_t *s, int rc, const char *what, char *err, size_t errlen);

/* store_schema.c: the migrations, in version order. */
typedef struct rigor__migration {
  int version;
  const char *description;
  const char *const *statements; /* NULL-terminated; "@KEY@" stands for ops->serial_key */
} rigor__migration_t;
extern const rigor__migration_t rigor__migrations[];
extern const size_t rigor__n_migrations;

#endif
