/* Per-instruction timeline (CSV and/or JSON) and per-(unit, buffer, class) aggregates. Every
 * instruction's start (instr_popped_log) is paired with its end (instr_log) by ID, or by PC in
 * order for lines without an ID; buffers come from device_addrs.toml. */
#ifndef PTO_VF_EXPORT_H
#define PTO_VF_EXPORT_H

#include <stddef.h>

#include "pto_vf_addrs.h"
#include "pto_vf_trace_set.h"

typedef struct vf_export_paths {
  const char *csv;  /* NULL or "" to skip */
  const char *json; /* NULL or "" to skip */
  const char *agg;  /* NULL or "" to skip */
} vf_export_paths_t;

/* Returns 0 or a negative errno with a message. `addrs` may be NULL (no buffer column values). */
int vf_export_write(const vf_trace_set_t *set, const vf_addrs_t *addrs,
                    const vf_export_paths_t *paths, char *err, size_t errlen);

#endif
