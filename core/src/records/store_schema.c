#include "store_internal.h"

/* Version 1: what a results file holds, with the import that brought it. Records are kept as
 * their JSON text so an export gives back exactly what was imported; the columns beside them are
 * what queries select on. "end" is a keyword in SQL, so a run's times are started/finished. */
static const char *const v1[] = {
    "CREATE TABLE rigor_schema ("
    " version INTEGER PRIMARY KEY,"
    " description TEXT NOT NULL,"
    " applied_at TEXT NOT NULL)",
    "CREATE TABLE imports ("
    " id @KEY@,"
    " source TEXT NOT NULL,"
    " source_sha256 TEXT NOT NULL,"
    " commit_sha TEXT,"
    " commit_date TEXT,"
    " branch TEXT,"
    " dirty INTEGER,"
    " imported_at TEXT NOT NULL,"
    " experiments_added INTEGER NOT NULL DEFAULT 0,"
    " runs_added INTEGER NOT NULL DEFAULT 0,"
    " samples_added INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE import_tags ("
    " import_id BIGINT NOT NULL REFERENCES imports(id),"
    " tag TEXT NOT NULL,"
    " value TEXT NOT NULL,"
    " PRIMARY KEY (import_id, tag))",
    "CREATE TABLE experiments ("
    " id @KEY@,"
    " record_key TEXT NOT NULL UNIQUE,"
    " name TEXT NOT NULL,"
    " hash TEXT NOT NULL,"
    " created TEXT,"
    " import_id BIGINT NOT NULL REFERENCES imports(id),"
    " identity TEXT NOT NULL,"
    " record TEXT NOT NULL)",
    "CREATE TABLE runs ("
    " id @KEY@,"
    " run_key TEXT NOT NULL UNIQUE,"
    " experiment_id BIGINT NOT NULL REFERENCES experiments(id),"
    " import_id BIGINT NOT NULL REFERENCES imports(id),"
    " run INTEGER NOT NULL,"
    " attempt INTEGER NOT NULL,"
    " variant INTEGER,"
    " label TEXT,"
    " status TEXT NOT NULL,"
    " started TEXT,"
    " finished TEXT,"
    " record TEXT NOT NULL)",
    "CREATE TABLE samples ("
    " id @KEY@,"
    " run_id BIGINT NOT NULL REFERENCES runs(id),"
    " seq INTEGER NOT NULL,"
    " cycle INTEGER,"
    " point INTEGER,"
    " point_label TEXT,"
    " status TEXT,"
    " time_s DOUBLE PRECISION,"
    " record TEXT NOT NULL)",
    "CREATE INDEX samples_by_run ON samples (run_id, seq)",
    "CREATE INDEX runs_by_import ON runs (import_id)",
    "CREATE INDEX runs_by_experiment ON runs (experiment_id)",
    "CREATE INDEX imports_by_commit ON imports (commit_sha)",
    "CREATE INDEX experiments_by_name ON experiments (name)",
    NULL,
};

const rigor__migration_t rigor__migrations[] = {
    {1, "experiments, runs and samples with the import, commit and tags that brought them", v1},
};
const size_t rigor__n_migrations = sizeof rigor__migrations / sizeof *rigor__migrations;
