/* The results store: the records' second medium, a database that keeps every imported results
 * file with the commit it measured (docs/results-format.md, "The store"). One interface over two
 * databases: SQLite (one file, the default) and PostgreSQL (a server, for a team), chosen by the
 * URL. Every function returns 0 or a negative RIGOR_E* code and writes its reason to err (which
 * does not repeat the URL). */
#ifndef RIGOR_STORE_H
#define RIGOR_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The schema version this build writes and reads; migrations bring older stores up to it. */
#define RIGOR_STORE_SCHEMA_VERSION 1

typedef struct rigor_store rigor_store_t;

/* "postgresql://..." or "postgres://..." (a libpq URI) opens PostgreSQL; "sqlite:PATH" or any
 * other text opens the SQLite file PATH. With create, a missing SQLite file is made; without it,
 * a missing file is RIGOR_ENOENT. */
int rigor_store_open(const char *url, bool create, rigor_store_t **out, char *err, size_t errlen);
void rigor_store_close(rigor_store_t *s);
/* The URL as messages may show it: a password in "scheme://user:password@host" becomes "***". */
void rigor_store_url_redact(const char *url, char *out, size_t len);
/* "sqlite" or "postgresql". */
const char *rigor_store_kind(const rigor_store_t *s);

/* The schema version of the database: 0 for an empty one. */
int rigor_store_version(rigor_store_t *s, int *version, char *err, size_t errlen);
/* Applies each migration above the database's version up to `target` (0 for
 * RIGOR_STORE_SCHEMA_VERSION), each in a transaction of its own. A database newer than this
 * build is refused. *from and *to (either may be NULL) receive the versions before and after. */
int rigor_store_migrate(rigor_store_t *s, int target, int *from, int *to, char *err, size_t errlen);
/* RIGOR_EINVAL with a message naming the command to run when the schema is not this build's. */
int rigor_store_require_current(rigor_store_t *s, char *err, size_t errlen);

/* What an import records besides the file: the commit it measured (NULL when unknown), its date
 * (ISO-8601 UTC, NULL when unknown), the branch, whether the working tree was dirty (-1 unknown)
 * and tags "KEY=VALUE". */
typedef struct rigor_store_import_opts {
  const char *commit, *commit_date, *branch;
  const char *source; /* what the import names as its source; NULL: the file's path */
  int dirty;
  const char *const *tags;
  size_t n_tags;
} rigor_store_import_opts_t;

typedef struct rigor_store_import_result {
  long long import_id; /* 0 when nothing was added */
  size_t experiments_added, runs_added, runs_present, samples_added;
  size_t samples_unstored; /* samples of attempts that have no run record */
} rigor_store_import_result_t;

/* Imports one results file in one transaction. A run already stored (same experiment hash, same
 * experiment record and same run record and samples) is not stored again, so importing a file
 * twice adds nothing. A file that does not read whole (malformed, or a last line cut by a killed
 * writer) is refused with "file:line:col: message" and nothing of it is stored. The file is read
 * as a stream, three times (check, keys, samples), so memory grows with its experiment and run
 * records, never with its samples; out of memory is refused in words, nothing stored. */
int rigor_store_import(rigor_store_t *s, const char *path, const rigor_store_import_opts_t *o,
                       rigor_store_import_result_t *res, char *err, size_t errlen);

/* Every import, oldest first: {id, source, sha256, commit, commit_date, branch, dirty, tags,
 * imported_at, experiments: [names], runs, samples}. */
int rigor_store_list(rigor_store_t *s, json_t **imports, char *err, size_t errlen);

/* Which stored runs to read. Members left NULL (or 0) do not filter. */
typedef struct rigor_store_filter {
  const char *commit;     /* the import's commit, exactly */
  long long import_id;    /* one import */
  const char *experiment; /* an experiment name */
} rigor_store_filter_t;

/* The matching records as a results file holds them: each experiment record, then each of its
 * runs' samples followed by the run record. rigor_store_export writes them as JSON Lines, and
 * returns RIGOR_ENOENT with err naming the selection when no run matches it. An export keeps the
 * runs of each commit (of each import, where it has no commit) apart: an experiment name whose
 * runs came at more than one commit, or under more than one experiment record, is written as one
 * experiment per commit, named NAME@COMMIT (see docs/results-format.md). */
int rigor_store_records(rigor_store_t *s, const rigor_store_filter_t *f, json_t **records,
                        char *err, size_t errlen);
int rigor_store_export(rigor_store_t *s, const rigor_store_filter_t *f, FILE *out, char *err,
                       size_t errlen);

/* One point of history: a commit, or an import that names none. Points are in commit order: by
 * commit date where one is known, by first import time otherwise. */
typedef struct rigor_store_point {
  char *commit;      /* NULL for an import without a commit */
  char *date;        /* commit date, NULL when unknown */
  char *branch;      /* of its latest import, may be NULL */
  int dirty;         /* 1 if any import of it was dirty, 0 clean, -1 unknown */
  char *imported_at; /* its first import */
  long long first_import;
} rigor_store_point_t;

/* The history's points, oldest first. */
int rigor_store_points(rigor_store_t *s, rigor_store_point_t **points, size_t *n, char *err,
                       size_t errlen);
void rigor_store_points_free(rigor_store_point_t *points, size_t n);
/* The filter that reads one point's runs. */
rigor_store_filter_t rigor_store_point_filter(const rigor_store_point_t *p);

#endif
