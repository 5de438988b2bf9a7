/* The rules every record of a results file meets, and the refusal each broken one gets. Both
 * ways of reading a line (sample_dom for clean samples, jansson for everything else) keep them. */
#ifndef RIGOR_RECORD_RULES_H
#define RIGOR_RECORD_RULES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Readers use these members as array indices, so each is bounded by what a config can produce;
 * a larger value is a damaged file, not a reason to allocate gigabytes. */
typedef enum {
  RIGOR_INDEX_RUN,
  RIGOR_INDEX_ATTEMPT,
  RIGOR_INDEX_VARIANT,
  RIGOR_INDEX_BLOCK,
  RIGOR_INDEX_POSITION,
  RIGOR_INDEX_CYCLE,
  RIGOR_INDEX_POINT,
  RIGOR_INDEX_ARM,  /* interleaved arms: the arm's index in its run */
  RIGOR_INDEX_SLOT, /* and its position in the cycle */
  RIGOR_INDEX_COUNT,
} rigor_index_t;

typedef struct rigor_index_member {
  const char *name;
  int64_t min, max;
} rigor_index_member_t;

extern const rigor_index_member_t rigor__index_members[RIGOR_INDEX_COUNT];

/* The record's refusal as "path:line:1: message" in `err` (RIGOR_EINVAL), or 0 when it keeps
 * every rule; *type is then its type. */
int rigor__record_check(const json_t *rec, const char *path, size_t line, const char **type,
                        char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
