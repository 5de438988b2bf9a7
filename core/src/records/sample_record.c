#include "sample_record.h"

#include "format.h"
#include "record_rules.h"

/* Both sides' places: the member's field in the builder's struct and in the reader's. */
#define BOTH(w, r) offsetof(rigor_sample_record_t, w), offsetof(rigor_sample_t, r)
#define WRITTEN(w) offsetof(rigor_sample_record_t, w), RIGOR_SAMPLE_NOWHERE
#define TOP        RIGOR_SAMPLE_TOP
#define NOWHERE    RIGOR_SAMPLE_NOWHERE, RIGOR_SAMPLE_NOWHERE

/* A count follows its array in both structs (RIGOR_SAMPLE_REALS, RIGOR_SAMPLE_METRICS). */
_Static_assert(offsetof(rigor_sample_t, n_raw) == offsetof(rigor_sample_t, raw) + sizeof(void *),
               "n_raw follows raw");
_Static_assert(offsetof(rigor_sample_record_t, n_raw) ==
                   offsetof(rigor_sample_record_t, raw) + sizeof(void *),
               "n_raw follows raw");
_Static_assert(offsetof(rigor_sample_t, n_metrics) ==
                   offsetof(rigor_sample_t, metrics) + sizeof(void *),
               "n_metrics follows metrics");

const rigor_sample_member_t rigor_sample_members[RIGOR_SM_COUNT] = {
    [RIGOR_SM_TYPE] = {"type", TOP, RIGOR_SAMPLE_CONST, NOWHERE, 0, "sample"},
    [RIGOR_SM_CYCLE] = {"cycle", TOP, RIGOR_SAMPLE_INDEX, BOTH(cycle, cycle), RIGOR_INDEX_CYCLE,
                        NULL},
    [RIGOR_SM_POINT] = {"point", TOP, RIGOR_SAMPLE_INDEX, BOTH(point, point), RIGOR_INDEX_POINT,
                        NULL},
    [RIGOR_SM_POINT_LABEL] = {"point_label", TOP, RIGOR_SAMPLE_TEXT, BOTH(point_label, point_label),
                              0, NULL},
    /* Read on demand, through rigor_sample_point_params. */
    [RIGOR_SM_POINT_PARAMS] = {"point_params", TOP, RIGOR_SAMPLE_JSON, WRITTEN(point_params), 0,
                               NULL},
    [RIGOR_SM_STATUS] = {"status", TOP, RIGOR_SAMPLE_STATUS, BOTH(status, status), 0, NULL},
    [RIGOR_SM_WINDOW] = {"window", TOP, RIGOR_SAMPLE_TEXT, BOTH(window, window), 0, NULL},
    [RIGOR_SM_TIME_S] = {"time_s", TOP, RIGOR_SAMPLE_REAL, BOTH(time_s, time_s), 0, NULL},
    [RIGOR_SM_WALL_S] = {"wall_s", TOP, RIGOR_SAMPLE_REAL, WRITTEN(wall_s), 0, NULL},
    [RIGOR_SM_CPUTIME_S] = {"cputime_s", TOP, RIGOR_SAMPLE_REAL, WRITTEN(cputime_s), 0, NULL},
    [RIGOR_SM_ITERS] = {"iters", TOP, RIGOR_SAMPLE_UINT, BOTH(iters, iters), 0, NULL},
    [RIGOR_SM_AGG] = {"agg", TOP, RIGOR_SAMPLE_UINT, BOTH(agg, agg), 0, NULL},
    [RIGOR_SM_BYTES] = {"bytes", TOP, RIGOR_SAMPLE_UINT, BOTH(bytes, bytes), 0, NULL},
    [RIGOR_SM_FLOPS] = {"flops", TOP, RIGOR_SAMPLE_REAL, BOTH(flops, flops), 0, NULL},
    [RIGOR_SM_BUS_FACTOR] = {"bus_factor", TOP, RIGOR_SAMPLE_REAL, BOTH(bus_factor, bus_factor), 0,
                             NULL},
    [RIGOR_SM_RATES] = {"rates", TOP, RIGOR_SAMPLE_OBJECT, NOWHERE, 0, NULL},
    [RIGOR_SM_BYTES_PER_S] = {"bytes_per_s", RIGOR_SM_RATES, RIGOR_SAMPLE_REAL,
                              BOTH(bytes_per_s, bytes_per_s), 0, NULL},
    [RIGOR_SM_FLOPS_PER_S] = {"flops_per_s", RIGOR_SM_RATES, RIGOR_SAMPLE_REAL,
                              BOTH(flops_per_s, flops_per_s), 0, NULL},
    [RIGOR_SM_BUSBW_BYTES_PER_S] = {"busbw_bytes_per_s", RIGOR_SM_RATES, RIGOR_SAMPLE_REAL,
                                    BOTH(busbw_bytes_per_s, busbw_bytes_per_s), 0, NULL},
    [RIGOR_SM_CHECK] = {"check", TOP, RIGOR_SAMPLE_OBJECT, WRITTEN(checked), 0, NULL},
    [RIGOR_SM_CHECK_CHECKED] = {"checked", RIGOR_SM_CHECK, RIGOR_SAMPLE_UINT,
                                WRITTEN(check_checked), 0, NULL},
    [RIGOR_SM_CHECK_WRONG] = {"wrong", RIGOR_SM_CHECK, RIGOR_SAMPLE_UINT,
                              BOTH(check_wrong, check_wrong), 0, NULL},
    [RIGOR_SM_CHECK_MAX_ABS_ERR] = {"max_abs_err", RIGOR_SM_CHECK, RIGOR_SAMPLE_REAL,
                                    WRITTEN(check_max_abs_err), 0, NULL},
    [RIGOR_SM_CHECK_MAX_REL_ERR] = {"max_rel_err", RIGOR_SM_CHECK, RIGOR_SAMPLE_REAL,
                                    WRITTEN(check_max_rel_err), 0, NULL},
    [RIGOR_SM_CHECK_TOLERANCE] = {"tolerance", RIGOR_SM_CHECK, RIGOR_SAMPLE_REAL,
                                  WRITTEN(check_tolerance), 0, NULL},
    [RIGOR_SM_CHECK_DETAIL] = {"detail", RIGOR_SM_CHECK, RIGOR_SAMPLE_TEXT, WRITTEN(check_detail),
                               0, NULL},
    [RIGOR_SM_METRICS] = {"metrics", TOP, RIGOR_SAMPLE_METRICS, BOTH(metrics, metrics), 0, NULL},
    [RIGOR_SM_ITERATIONS] = {"iterations", TOP, RIGOR_SAMPLE_OBJECT,
                             BOTH(has_iterations, has_iterations), 0, NULL},
    [RIGOR_SM_IT_N] = {"n", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_UINT, BOTH(it_n, it_n), 0, NULL},
    [RIGOR_SM_IT_MIN] = {"min", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REAL, BOTH(it_min, it_min), 0,
                         NULL},
    [RIGOR_SM_IT_MAX] = {"max", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REAL, BOTH(it_max, it_max), 0,
                         NULL},
    [RIGOR_SM_IT_P50] = {"p50", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REAL, BOTH(it_p50, it_p50), 0,
                         NULL},
    [RIGOR_SM_IT_P95] = {"p95", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REAL, BOTH(it_p95, it_p95), 0,
                         NULL},
    [RIGOR_SM_IT_P99] = {"p99", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REAL, BOTH(it_p99, it_p99), 0,
                         NULL},
    [RIGOR_SM_IT_MEAN] = {"mean", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REAL, BOTH(it_mean, it_mean), 0,
                          NULL},
    [RIGOR_SM_IT_CV] = {"cv", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REAL, BOTH(it_cv, it_cv), 0, NULL},
    [RIGOR_SM_IT_SOURCE] = {"source", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_TEXT, WRITTEN(it_source), 0,
                            NULL},
    [RIGOR_SM_IT_RAW] = {"raw", RIGOR_SM_ITERATIONS, RIGOR_SAMPLE_REALS, BOTH(raw, raw), 0, NULL},
    [RIGOR_SM_RANKS] = {"ranks", TOP, RIGOR_SAMPLE_JSON, WRITTEN(ranks), 0, NULL},
    [RIGOR_SM_SCHEMA] = {"schema", TOP, RIGOR_SAMPLE_CONST, NOWHERE, 0, RIGOR_RESULT_SCHEMA},
    [RIGOR_SM_EXPERIMENT] = {"experiment", TOP, RIGOR_SAMPLE_TEXT, BOTH(experiment, experiment), 0,
                             NULL},
    [RIGOR_SM_RUN] = {"run", TOP, RIGOR_SAMPLE_INDEX, BOTH(run, run), RIGOR_INDEX_RUN, NULL},
    [RIGOR_SM_ATTEMPT] = {"attempt", TOP, RIGOR_SAMPLE_INDEX, BOTH(attempt, attempt),
                          RIGOR_INDEX_ATTEMPT, NULL},
    [RIGOR_SM_VARIANT] = {"variant", TOP, RIGOR_SAMPLE_INDEX, BOTH(variant, variant),
                          RIGOR_INDEX_VARIANT, NULL},
    [RIGOR_SM_ARM] = {"arm", TOP, RIGOR_SAMPLE_INDEX, BOTH(arm, arm), RIGOR_INDEX_ARM, NULL},
    [RIGOR_SM_SLOT] = {"slot", TOP, RIGOR_SAMPLE_INDEX, BOTH(slot, slot), RIGOR_INDEX_SLOT, NULL},
};
