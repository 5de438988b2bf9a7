/* Finds the dump pairs core<C>.veccore<V>.{instr_popped_log,instr_log}.dump (and cubecore ones
 * when asked) in a trace directory. */
#ifndef PTO_VF_TRACE_SET_H
#define PTO_VF_TRACE_SET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct vf_unit_files {
  char unit[48]; /* "core0.veccore0" */
  bool cube;
  char *starts; /* path of the instr_popped_log dump */
  char *ends;   /* path of the instr_log dump */
} vf_unit_files_t;

typedef struct vf_trace_set {
  vf_unit_files_t *units;
  size_t n;
} vf_trace_set_t;

/* `select` is "all" (every vector unit found) or a comma-separated list of units such as
 * "core0.veccore0,core1.veccore0". Every selected unit needs both dumps; a missing one is an
 * error naming the file. Returns 0, -ENOENT (message in err) or -ENOMEM. */
int vf_trace_set_find(const char *dir, const char *select, bool include_cube, vf_trace_set_t *out,
                      char *err, size_t errlen);
void vf_trace_set_free(vf_trace_set_t *set);

#endif
