/* Per-process state shared by the plugin's files, and what each of them offers the others. */
#ifndef PTO_VF_STATE_H
#define PTO_VF_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "pto_vf_golden.h"
#include "pto_vf_params.h"
#include "pto_vf_repeats.h"
#include "pto_vf_runner.h"
#include "pto_vf_scan.h"
#include "pto_vf_trace_set.h"
#include "rigor/plugin.h"

/* One dump as it was read: its identity on disk, its bytes when preloaded, its hash. */
typedef struct pto_vf_dump {
  char *path;
  struct stat sb;     /* the file when it was read (or looked at) */
  char *data;         /* the whole file mapped read-only when preloaded (NULL when empty) */
  size_t len;         /* its size as read */
  bool preloaded;     /* data and len hold the file */
  XXH128_hash_t hash; /* XXH3-128 of the bytes read */
  bool hashed;
} pto_vf_dump_t;

typedef struct pto_vf_state {
  rigor_ctx_t *ctx;
  const rigor_host_t *host;
  const rigor_points_t *points;
  rigor_work_t *work;
  pto_vf_repeats_t repeats; /* one history per point */
  /* the point being measured */
  const pto_vf_params_t *p;
  size_t point_index;
  char **argv;
  vf_trace_set_t set;
  pto_vf_dump_t *dumps; /* 2 per unit of `set`: starts, ends */
  size_t n_dumps;
  vf_summary_t sum;
  int scan_rc;
  bool scanned;
  bool recorded;
  vf_golden_t golden;
  bool ran;
  vf_run_result_t run;
  char invalid[256]; /* first validity rule broken before the window */
} pto_vf_state_t;

static inline bool pto_vf_has_text(const char *s) {
  return s && *s;
}

static inline vf_golden_patterns_t pto_vf_patterns_of(const pto_vf_params_t *p) {
  return (vf_golden_patterns_t){p->status_regex, p->mismatches_regex, p->max_abs_err_regex,
                                p->max_rel_err_regex};
}

/* pto_vf_dumps.c: find the point's dumps, preload them, hash them, scan them. Each file is read
 * once: the same pass fills the preload buffer and the identity hash, and a buffer stays in
 * memory for later primes while the file on disk is unchanged and no runner rewrote it. */
/* Finds the units' dumps of st->p, reads them into memory when preloading and sets work->bytes to
 * their size; missing dumps make the sample invalid. */
int pto_vf_dumps_load(pto_vf_state_t *st);
/* Makes the dumps of `p` current and hashed (reading them once if they are not yet: into memory
 * when `p` preloads). Returns 0, or -errno with the reason in err. */
int pto_vf_dumps_hashes(pto_vf_state_t *st, const pto_vf_params_t *p, char *err, size_t errlen);
/* Scans unit i into `sum` from memory or from disk; returns 0 or -errno. */
int pto_vf_dumps_scan(pto_vf_state_t *st, size_t i, vf_summary_t *sum);
/* The path of a scan's file index (2 per unit: starts, ends), "?" when out of range. */
const char *pto_vf_dump_path(const pto_vf_state_t *st, uint32_t file);
void pto_vf_dumps_release(pto_vf_state_t *st);

/* pto_vf_state.c: keeps the first broken validity rule; returns 0 so a prime step can return it. */
int pto_vf_set_invalid(pto_vf_state_t *st, const char *fmt, ...) RIGOR_PRINTF(2, 3);

/* pto_vf_validity.c: the rules a sample must meet to be valid. */
/* The golden gate and the measurement contract, after the runner and before the window. */
void pto_vf_check_golden(pto_vf_state_t *st);
/* Empty when the sample is valid, else the first broken rule. */
void pto_vf_sample_reason(const pto_vf_state_t *st, char *out, size_t cap);

/* pto_vf_metrics.c */
int pto_vf_metrics_read(rigor_ctx_t *ctx, void *state, const void *point, double *values);

/* pto_vf_identity.c: the dumps' sizes and hashes, and the runner's outcome. */
int pto_vf_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap);

#endif
