/* Scans one core's pair of dumps (instr_popped_log = starts, instr_log = ends), merging the two
 * streams by cycle so that only VFs in flight wait for their partner. */
#ifndef PTO_VF_SCAN_H
#define PTO_VF_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "pto_vf_class.h"
#include "pto_vf_line.h"
#include "pto_vf_pair.h"
#include "pto_vf_reader.h"

#define VF_SCAN_MAX_ISSUES 8

typedef struct vf_issue {
  uint32_t file; /* caller's file index */
  uint64_t line;
  vf_line_status_t kind;
} vf_issue_t;

typedef struct vf_summary {
  uint64_t lines; /* non-blank lines */
  uint64_t bytes;
  uint64_t malformed;
  uint64_t malformed_by_kind[VF_LINE_KIND_COUNT];
  vf_issue_t issues[VF_SCAN_MAX_ISSUES]; /* the first malformed lines */
  uint32_t n_issues;
  uint64_t vf_starts, vf_ends;
  uint64_t matched, unmatched_starts, unmatched_ends;
  bool has_first_start, has_last_end;
  uint64_t first_vf_start, last_vf_end;
  uint64_t exec_n, exec_sum, exec_min, exec_max;
  uint64_t real_n, real_sum, real_min, real_max;
  uint64_t instr_num_n, instr_num_sum;
  uint64_t class_count[VF_CLASS_COUNT]; /* over instr_log records */
  size_t peak_waiting;                  /* most VFs waiting for a partner at once */
} vf_summary_t;

/* Called for every parsed record, in merged order, when not NULL. */
typedef int (*vf_record_fn)(void *arg, vf_side_t side, const vf_line_t *line);

void vf_summary_init(vf_summary_t *s);
/* Folds a core's summary into a total: sums counts, widens the VF window. */
void vf_summary_merge(vf_summary_t *into, const vf_summary_t *from);

/* Scans to the end of both readers. Malformed lines are counted, never fatal; returns 0, or
 * -errno on a read or allocation error, or the callback's nonzero return. `file_base` and
 * file_base + 1 are the file indices recorded in issues for `starts` and `ends`. */
int vf_scan_core(vf_reader_t *starts, vf_reader_t *ends, uint32_t file_base, vf_summary_t *sum,
                 vf_record_fn fn, void *arg);

#endif
