/* The golden (correctness) result of one candidate: from a small file the runner writes, or from
 * the runner's output through configurable regular expressions. */
#ifndef PTO_VF_GOLDEN_H
#define PTO_VF_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { VF_GOLDEN_UNKNOWN = -1, VF_GOLDEN_FAIL = 0, VF_GOLDEN_PASS = 1 } vf_golden_status_t;

typedef struct vf_golden {
  vf_golden_status_t status;
  bool has_mismatches;
  uint64_t mismatches;
  double max_abs_err, max_rel_err; /* NaN when absent */
  double atol, rtol;               /* tolerances the check used; NaN when absent */
  bool has_build_flags, has_workload;
  char build_flags[512];
  char workload[256];
} vf_golden_t;

/* POSIX extended regular expressions; group 1 holds the value. NULL or "" means unused. */
typedef struct vf_golden_patterns {
  const char *status; /* group 1 is PASS or FAIL, any case */
  const char *mismatches;
  const char *max_abs_err;
  const char *max_rel_err;
} vf_golden_patterns_t;

void vf_golden_init(vf_golden_t *g);
/* A JSON object when the text starts with '{', otherwise key = value lines ('#' comments). Keys:
 * status, mismatches, max_abs_err, max_rel_err, atol, rtol, build_flags, workload. Unknown keys
 * and bad values are errors naming file:line. Returns 0 or -EINVAL. */
int vf_golden_parse(const char *text, size_t len, const char *file, vf_golden_t *g, char *err,
                    size_t errlen);
int vf_golden_load(const char *path, vf_golden_t *g, char *err, size_t errlen);
/* Compiles every pattern once to report mistakes early; returns 0 or -EINVAL. */
int vf_golden_patterns_check(const vf_golden_patterns_t *p, char *err, size_t errlen);
/* Applies the patterns to NUL-terminated runner output, filling the fields they match. */
int vf_golden_from_output(const char *output, const vf_golden_patterns_t *p, vf_golden_t *g,
                          char *err, size_t errlen);

#endif
