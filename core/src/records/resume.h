/* What --resume finds in a results file: which runs finished, and the attempts made. */
#ifndef RIGOR_RESUME_H
#define RIGOR_RESUME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct rigor_resume {
  bool have_experiment; /* the file already holds this experiment's record */
  size_t n_runs;
  uint8_t *done;       /* per run: 1 once a record gave it a final status (ok, skipped, invalid) */
  uint32_t *attempt;   /* per run: the last attempt seen, 0 for none */
  off_t keep_bytes;    /* where the file's last complete line ends: a writer cuts the rest */
  json_t *experiments; /* the names of the experiments the file holds, as an object's keys */
  bool stopped;        /* a stop record ended the experiment (precision or max): nothing to run */
  /* The experiment record's `plugin` and `builds` (NULL when absent): what the file's runs
   * loaded, hashes included. */
  json_t *plugin, *builds;
} rigor_resume_t;

/* Scans `path` for experiment `name` with `n_runs` runs. A different experiment hash is refused
 * (RIGOR_ECONFIG, naming the config paths that changed against `config`). The scan changes
 * nothing: a half-written last line, which a killed writer leaves, is reported in keep_bytes for
 * the writer to cut. A large file takes a while to read: when `stopped` (may be NULL) turns true,
 * the scan ends with RIGOR_ECANCELED. */
int rigor_resume_scan(const char *path, const char *name, const char *hash, const json_t *config,
                      size_t n_runs, int (*stopped)(void), rigor_resume_t *out, char *err,
                      size_t errlen);
void rigor_resume_free(rigor_resume_t *r);

#endif
