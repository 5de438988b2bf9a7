/* libpq, loaded when a PostgreSQL store is first opened rather than linked: its start-up (Kerberos,
 * LDAP, GnuTLS) cost every rigor command about 7 ms on this project's machine, and only
 * `--db postgresql://` uses it. */
#ifndef RIGOR_LIBPQ_API_H
#define RIGOR_LIBPQ_API_H

#include <libpq-fe.h>
#include <stddef.h>

typedef struct rigor_libpq {
  __typeof__(PQconnectdb) *connectdb;
  __typeof__(PQstatus) *status;
  __typeof__(PQerrorMessage) *errorMessage;
  __typeof__(PQfinish) *finish;
  __typeof__(PQsetNoticeProcessor) *setNoticeProcessor;
  __typeof__(PQexecParams) *execParams;
  __typeof__(PQresultStatus) *resultStatus;
  __typeof__(PQresultErrorMessage) *resultErrorMessage;
  __typeof__(PQnfields) *nfields;
  __typeof__(PQntuples) *ntuples;
  __typeof__(PQgetisnull) *getisnull;
  __typeof__(PQgetvalue) *getvalue;
  __typeof__(PQclear) *clear;
} rigor_libpq_t;

/* The table, loaded once (libpq.so.5, Debian's libpq5); NULL with why in err when it cannot be. */
const rigor_libpq_t *rigor_libpq(char *err, size_t errlen);

#endif
