/* The sample record, one per run, cycle and point (docs/results-format.md): its statuses and the
 * table of its members. The runner's builder and both readers (sample_json.c, sample_dom.cpp)
 * walk the table, so a new member is one entry here and its place in the two structs. */
#ifndef RIGOR_SAMPLE_RECORD_H
#define RIGOR_SAMPLE_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the runner writes of one sample. Members marked taken are released by the builder. */
typedef struct rigor_sample_record {
  const char *experiment;
  int64_t run, attempt, variant, cycle, point;
  int64_t arm, slot; /* interleaved arms; -1 leaves them out */
  const char *point_label;
  json_t *point_params; /* taken */
  rigor_sample_status_t status;
  const char *window; /* "wall" or "cputime" */
  double time_s, wall_s, cputime_s;
  uint64_t iters, agg, bytes;
  double flops, bus_factor;
  double bytes_per_s, flops_per_s, busbw_bytes_per_s; /* NaN writes null */
  bool checked;                                       /* false writes "check": null */
  uint64_t check_checked, check_wrong;
  double check_max_abs_err, check_max_rel_err, check_tolerance;
  const char *check_detail; /* NULL writes null */
  json_t *metrics;          /* taken: {name: value} */
  bool has_iterations;      /* false writes "iterations": null */
  uint64_t it_n;
  double it_min, it_max, it_p50, it_p95, it_p99, it_mean, it_cv;
  const char *it_source;
  const double *raw;
  size_t n_raw;
  json_t *ranks; /* taken; NULL writes null */
} rigor_sample_record_t;

/* A sample record whose members (those with a value) are NaN, -1 or NULL. */
rigor_sample_record_t rigor_sample_record_init(void);
/* The record's JSON, members in the table's order; takes the members marked taken. */
json_t *rigor_record_sample(rigor_sample_record_t *x);
/* Releases the taken members of a record that is not built. */
void rigor_sample_record_drop(rigor_sample_record_t *x);

/* How a member is written and read. */
typedef enum {
  RIGOR_SAMPLE_CONST,   /* a fixed string (`constant`); readers check it, store nothing */
  RIGOR_SAMPLE_INDEX,   /* an index of record_rules.h (`rule`); int64_t, < 0 left out / -1 absent */
  RIGOR_SAMPLE_TEXT,    /* const char *; NULL writes null, absent or not a string reads NULL */
  RIGOR_SAMPLE_STATUS,  /* rigor_sample_status_t, as its name */
  RIGOR_SAMPLE_REAL,    /* double; not finite writes null, not a number reads NaN */
  RIGOR_SAMPLE_UINT,    /* uint64_t, an integer (a real past INT64_MAX); read as a double */
  RIGOR_SAMPLE_OBJECT,  /* an object of the members after it that name it their parent; a bool
                           says it is there (RIGOR_SAMPLE_NOWHERE: always written) */
  RIGOR_SAMPLE_REALS,   /* an array of numbers: const double * then its size_t count */
  RIGOR_SAMPLE_METRICS, /* {name: number}: json_t * taken; read as rigor_sample_metric_t * then
                           its size_t count */
  RIGOR_SAMPLE_JSON,    /* any JSON: json_t * taken, NULL writes null; not read */
} rigor_sample_kind_t;

/* The members, in the order the builder writes them; an object's members follow it. */
typedef enum {
  RIGOR_SAMPLE_MEMBER_TYPE,
  RIGOR_SAMPLE_MEMBER_CYCLE,
  RIGOR_SAMPLE_MEMBER_POINT,
  RIGOR_SAMPLE_MEMBER_POINT_LABEL,
  RIGOR_SAMPLE_MEMBER_POINT_PARAMS,
  RIGOR_SAMPLE_MEMBER_STATUS,
  RIGOR_SAMPLE_MEMBER_WINDOW,
  RIGOR_SAMPLE_MEMBER_TIME_S,
  RIGOR_SAMPLE_MEMBER_WALL_S,
  RIGOR_SAMPLE_MEMBER_CPUTIME_S,
  RIGOR_SAMPLE_MEMBER_ITERS,
  RIGOR_SAMPLE_MEMBER_AGG,
  RIGOR_SAMPLE_MEMBER_BYTES,
  RIGOR_SAMPLE_MEMBER_FLOPS,
  RIGOR_SAMPLE_MEMBER_BUS_FACTOR,
  RIGOR_SAMPLE_MEMBER_RATES,
  RIGOR_SAMPLE_MEMBER_BYTES_PER_S,
  RIGOR_SAMPLE_MEMBER_FLOPS_PER_S,
  RIGOR_SAMPLE_MEMBER_BUSBW_BYTES_PER_S,
  RIGOR_SAMPLE_MEMBER_CHECK,
  RIGOR_SAMPLE_MEMBER_CHECK_CHECKED,
  RIGOR_SAMPLE_MEMBER_CHECK_WRONG,
  RIGOR_SAMPLE_MEMBER_CHECK_MAX_ABS_ERR,
  RIGOR_SAMPLE_MEMBER_CHECK_MAX_REL_ERR,
  RIGOR_SAMPLE_MEMBER_CHECK_TOLERANCE,
  RIGOR_SAMPLE_MEMBER_CHECK_DETAIL,
  RIGOR_SAMPLE_MEMBER_METRICS,
  RIGOR_SAMPLE_MEMBER_ITERATIONS,
  RIGOR_SAMPLE_MEMBER_IT_N,
  RIGOR_SAMPLE_MEMBER_IT_MIN,
  RIGOR_SAMPLE_MEMBER_IT_MAX,
  RIGOR_SAMPLE_MEMBER_IT_P50,
  RIGOR_SAMPLE_MEMBER_IT_P95,
  RIGOR_SAMPLE_MEMBER_IT_P99,
  RIGOR_SAMPLE_MEMBER_IT_MEAN,
  RIGOR_SAMPLE_MEMBER_IT_CV,
  RIGOR_SAMPLE_MEMBER_IT_SOURCE,
  RIGOR_SAMPLE_MEMBER_IT_RAW,
  RIGOR_SAMPLE_MEMBER_RANKS,
  RIGOR_SAMPLE_MEMBER_SCHEMA,
  RIGOR_SAMPLE_MEMBER_EXPERIMENT,
  RIGOR_SAMPLE_MEMBER_RUN,
  RIGOR_SAMPLE_MEMBER_ATTEMPT,
  RIGOR_SAMPLE_MEMBER_VARIANT,
  RIGOR_SAMPLE_MEMBER_ARM,
  RIGOR_SAMPLE_MEMBER_SLOT,
  RIGOR_SAMPLE_MEMBER_COUNT,
} rigor_sample_member_id_t;

/* A place no reader fills (or, for an object, no flag: always written). */
#define RIGOR_SAMPLE_NOWHERE SIZE_MAX
/* The top level, as a member's parent. */
#define RIGOR_SAMPLE_TOP (-1)

typedef struct rigor_sample_member {
  const char *key;
  int parent; /* the object member holding it, or RIGOR_SAMPLE_TOP */
  rigor_sample_kind_t kind;
  size_t written_from; /* offset in rigor_sample_record_t */
  size_t read_into;    /* offset in rigor_sample_t, or RIGOR_SAMPLE_NOWHERE */
  int rule;            /* RIGOR_SAMPLE_INDEX: its rigor_index_t */
  const char *constant;
} rigor_sample_member_t;

extern const rigor_sample_member_t rigor_sample_members[RIGOR_SAMPLE_MEMBER_COUNT];

#ifdef __cplusplus
}
#endif

#endif
