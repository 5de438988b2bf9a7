/* rigor plugin ABI. The only header a plugin includes; plugins link nothing from the core.
 *
 * A plugin exports one function, rigor_plugin_get(index), returning a const descriptor for each
 * index and NULL past the last. Descriptors start with abi_major and size: the core refuses a
 * different abi_major and copies min(size, sizeof) into a zeroed descriptor of its own, so fields
 * appended in later versions read as NULL/0 for older plugins. Grow this struct only by appending.
 */
#ifndef RIGOR_PLUGIN_H
#define RIGOR_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RIGOR_ABI_MAJOR 1

#if defined(__GNUC__)
#define RIGOR_EXPORT       __attribute__((visibility("default")))
#define RIGOR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RIGOR_EXPORT
#define RIGOR_PRINTF(f, a)
#endif

/* Error codes: negative, libuv style. XX(name, value, message). */
#define RIGOR_ERRNO_MAP(XX)                                                                        \
  XX(EINVAL, -22, "invalid argument")                                                              \
  XX(ENOMEM, -12, "out of memory")                                                                 \
  XX(EIO, -5, "input/output error")                                                                \
  XX(ENOENT, -2, "no such file or directory")                                                      \
  XX(ETIMEDOUT, -110, "timed out")                                                                 \
  XX(ECANCELED, -125, "canceled")                                                                  \
  XX(ENOTSUP, -95, "not supported")                                                                \
  XX(ERANGE, -34, "value out of range")                                                            \
  XX(EUNAVAILABLE, -1001, "unavailable on this machine")                                           \
  XX(EVALIDATE, -1002, "validation failed")                                                        \
  XX(EPLUGIN, -1003, "plugin error")                                                               \
  XX(ECONFIG, -1004, "configuration error")                                                        \
  XX(EABI, -1005, "plugin ABI mismatch")

typedef enum {
#define RIGOR_ERR_ENUM(name, value, msg) RIGOR_##name = (value),
  RIGOR_ERRNO_MAP(RIGOR_ERR_ENUM)
#undef RIGOR_ERR_ENUM
} rigor_errno_t;

/* Opaque per-process handle the core passes to every callback and host service. */
typedef struct rigor_ctx rigor_ctx_t;

/* ---- parameter schema ---------------------------------------------------------------------- */

/* Storage in the params struct at `offset`:
 *   BOOL -> bool, INT -> int64_t, UINT -> uint64_t, DOUBLE -> double,
 *   SIZE -> uint64_t (bytes; YAML "64MiB", "1M", "1G" are binary), STRING -> const char *
 *   (owned by the core, valid until fini), ENUM -> int32_t index into `choices`,
 *   JSON -> const char * holding canonical JSON text (compact, keys sorted; owned by the core,
 *   valid until fini): YAML lists become arrays, mappings objects, scalars strings, and plain
 *   nulls null. `def` is JSON text ("[]", "{}"); NULL means null. A matrix or sweep axis named
 *   "PARAM.KEY" sets member KEY of the JSON param PARAM's object. */
typedef enum {
  RIGOR_PARAM_BOOL = 1,
  RIGOR_PARAM_INT,
  RIGOR_PARAM_UINT,
  RIGOR_PARAM_DOUBLE,
  RIGOR_PARAM_SIZE,
  RIGOR_PARAM_STRING,
  RIGOR_PARAM_ENUM,
  RIGOR_PARAM_JSON, /* appended after ABI 1's first release */
} rigor_param_type_t;

typedef struct rigor_param {
  const char *name;
  rigor_param_type_t type;
  size_t offset;   /* offsetof(params struct, field) */
  const char *def; /* default, written as in YAML; NULL means 0 / false / "" / first */
  const char *min; /* inclusive bounds as text, NULL for none (numeric types) */
  const char *max;
  const char *const *choices; /* ENUM: NULL-terminated */
  const char *const
      *aliases; /* ENUM sweeps: NULL-terminated pairs {"classic", "copy,scale", ...} */
  const char *help;
} rigor_param_t;

/* ---- metrics ----------------------------------------------------------------------------- */

/* Which way a metric is better. RIGOR_NOT_A_FIGURE (appended with rigor 0.1.0, ABI 1, before its
 * first release) marks a state the run was in rather than a performance figure (the store path
 * a kernel took, the threads that ran it): reports show it, and no gate, comparison, contrast or
 * history judges it. */
typedef enum {
  RIGOR_LOWER_IS_BETTER = 1,
  RIGOR_HIGHER_IS_BETTER = 2,
  RIGOR_NOT_A_FIGURE = 3
} rigor_better_t;

typedef struct rigor_metric {
  const char *name;
  const char *unit;
  rigor_better_t better;
  const char *help;
} rigor_metric_t;

/* A metric the params declare (declare_metrics): the text lives in the struct. */
typedef struct rigor_metric_decl {
  char name[48];
  char unit[16];
  rigor_better_t better;
  char help[128];
} rigor_metric_decl_t;

/* ---- per-operation work, check results, points ----------------------------------------------- */

/* The work one operation did. Before each prime() the core sets bytes and flops to 0 and
 * bus_factor to NaN (unset); the plugin fills them in prime() or run() from what the loop
 * actually executed. The core reads them after complete() and derives rates: bytes/s, flops/s,
 * and bus bandwidth = bytes/s * bus_factor, where an unset (or negative) bus_factor reads as 1
 * and 0 means no bus traffic (a collective on one rank). */
typedef struct rigor_work {
  uint64_t bytes;
  double flops;
  double bus_factor;
} rigor_work_t;

/* Filled by validate(). `wrong` elements failed; `detail` names the first failure. */
typedef struct rigor_check {
  uint64_t checked;
  uint64_t wrong;
  double max_abs_err;
  double max_rel_err;
  double tolerance;
  char detail[256];
} rigor_check_t;

/* Every point of the in-process sweep as a fully filled params struct, in sweep order. */
typedef struct rigor_points {
  uint32_t count;
  const void *const *points;
} rigor_points_t;

typedef struct rigor_kv {
  char key[64];
  char value[256];
} rigor_kv_t;

typedef struct rigor_telemetry_value {
  char name[48];
  double value;
} rigor_telemetry_value_t;

/* ---- host services ----------------------------------------------------------------------- */

typedef enum {
  RIGOR_LOG_DEBUG = 0,
  RIGOR_LOG_INFO,
  RIGOR_LOG_WARN,
  RIGOR_LOG_ERROR
} rigor_log_level_t;
typedef enum { RIGOR_RED_SUM = 0, RIGOR_RED_MIN, RIGOR_RED_MAX } rigor_redop_t;
typedef enum { RIGOR_DT_INT64 = 0, RIGOR_DT_UINT64, RIGOR_DT_DOUBLE } rigor_host_dtype_t;

/* Lent to the plugin by the core; `size` is the core's sizeof, so a plugin checks
 * `host->size >= offsetof(rigor_host_t, field) + sizeof host->field` before using a newer field. */
typedef struct rigor_host {
  uint32_t size;
  uint32_t abi_major;
  /* Record an error; the first one wins and becomes the run's reason. Returns `code`. */
  int (*error)(rigor_ctx_t *ctx, int code, const char *fmt, ...) RIGOR_PRINTF(3, 4);
  void (*log)(rigor_ctx_t *ctx, rigor_log_level_t level, const char *fmt, ...) RIGOR_PRINTF(3, 4);
  int (*rank)(rigor_ctx_t *ctx);
  int (*nranks)(rigor_ctx_t *ctx);
  int (*barrier)(rigor_ctx_t *ctx);
  int (*allreduce)(rigor_ctx_t *ctx, void *buf, size_t count, rigor_host_dtype_t dtype,
                   rigor_redop_t op);
  int (*broadcast)(rigor_ctx_t *ctx, void *buf, size_t bytes, int root);
  uint64_t (*now_ns)(rigor_ctx_t *ctx);  /* CLOCK_MONOTONIC */
  bool (*should_stop)(rigor_ctx_t *ctx); /* cooperative deadline / signal flag */
  /* CPUs this run is bound to (environment.affinity); returns the count, at most `cap` written. */
  int (*cpus)(rigor_ctx_t *ctx, int *out, int cap);
  /* Set by --allow-commands: whether the plugin may execute external commands. */
  bool (*commands_allowed)(rigor_ctx_t *ctx);
} rigor_host_t;

/* ---- the descriptor ------------------------------------------------------------------------ */

enum {
  RIGOR_PLUGIN_RUNS_COMMANDS = 1u << 0, /* may execute external commands (needs --allow-commands) */
};

/* What a plugin can do, in rigor_plugin_t.capabilities, each bit backed by the hooks it names.
 * 0 (every plugin built before the field) means "infer them from which hooks are present", as
 * the core always did. A plugin that sets RIGOR_CAP_DECLARED says exactly what it does: the core
 * refuses it when a declared capability lacks its hooks, when a hook is present without its
 * capability, or when it sets bits this rigor does not know. */
enum rigor_plugin_caps {
  /* The bits below are the plugin's word, not inferred; set it even when no other bit is set. */
  RIGOR_CAP_DECLARED = 1u << 0,
  /* run() only issues the operations; complete() waits for them (a GPU stream, a queue). */
  RIGOR_CAP_ASYNC = 1u << 1,
  /* validate() checks the output of what ran, after the window. */
  RIGOR_CAP_VALIDATES = 1u << 2,
  /* mark() and mark_read() time each iteration on the device (timing.per_iteration uses them
   * instead of the host clock). */
  RIGOR_CAP_DEVICE_MARKS = 1u << 3,
  /* metrics_read() gives one value per metric after the window. */
  RIGOR_CAP_READS_METRICS = 1u << 4,
  /* identity() names what was measured (a device, a driver) into the run's record. */
  RIGOR_CAP_IDENTITY = 1u << 5,
  /* telemetry() is sampled from another thread while the run goes on (thread-safe). */
  RIGOR_CAP_TELEMETRY = 1u << 6,
  /* warm_points() names the sizes of timing.warmup_sizes other than `points`. */
  RIGOR_CAP_WARMUP_SIZES = 1u << 7,
  /* check_params() checks what a schema cannot say, before anything runs. */
  RIGOR_CAP_CHECKS_PARAMS = 1u << 8,
  /* commands() lists the external commands of a RIGOR_PLUGIN_RUNS_COMMANDS plugin. */
  RIGOR_CAP_LISTS_COMMANDS = 1u << 9,
  /* declare_metrics() adds metrics that depend on the params. */
  RIGOR_CAP_DECLARES_METRICS = 1u << 10,
  /* footprint() says how much memory one instance holds (rigor plan, and the check that the
   * arms of an interleaved run fit in memory together). */
  RIGOR_CAP_FOOTPRINT = 1u << 11,
};

typedef enum { RIGOR_MARK_BEGIN = 0, RIGOR_MARK_END = 1 } rigor_mark_kind_t;

/* timing.warmup_sizes: the sizes the untimed warmup sweep runs. */
typedef enum {
  RIGOR_WARMUP_POINTS = 0,        /* the sweep's own points (the default) */
  RIGOR_WARMUP_POWERS_OF_TWO = 1, /* nccl-tests: the smallest size, doubled up to the largest */
} rigor_warmup_sizes_t;

typedef struct rigor_plugin {
  uint32_t abi_major; /* RIGOR_ABI_MAJOR */
  uint32_t size;      /* sizeof(rigor_plugin_t) as the plugin was compiled */
  const char *name;
  const char *version;
  const char *summary;
  uint32_t flags;

  const rigor_param_t *params;
  uint32_t n_params;
  size_t params_size; /* sizeof the plugin's params struct */
  const rigor_metric_t *metrics;
  uint32_t n_metrics;

  /* Required. `params` is the base params struct, `points` the sweep. Keep `work`: fill it per
   * point. On failure, clean up and return a negative code (RIGOR_EUNAVAILABLE to be skipped). */
  int (*init)(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
              const rigor_points_t *points, void **state, rigor_work_t *work);
  /* Required. Untimed: data init, first touch, cache flush, priming operation. */
  int (*prime)(rigor_ctx_t *ctx, void *state, const void *point);
  /* Required. Inside the window: issue n operations. No allocation, no I/O. */
  int (*run)(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n);
  /* Optional (NULL for synchronous plugins): wait for everything run() issued. */
  int (*complete)(rigor_ctx_t *ctx, void *state, const void *point);
  /* Optional: check the output of what ran, after the window. Return RIGOR_EVALIDATE on failure. */
  int (*validate)(rigor_ctx_t *ctx, void *state, const void *point, rigor_check_t *check);
  /* Required: exactly once when init succeeded. */
  void (*fini)(rigor_ctx_t *ctx, void *state);

  /* Optional hooks. */
  int (*identity)(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap); /* returns count */
  /* Called from the telemetry sampler thread: must be thread-safe. Returns count. */
  int (*telemetry)(rigor_ctx_t *ctx, void *state, rigor_telemetry_value_t *out, int cap);
  /* Per-iteration device events: mark(i, BEGIN) before iteration i, mark(iters, BEGIN) after the
   * loop, and mark(i, END) after each iteration's completion under blocking each_excluded. */
  int (*mark)(rigor_ctx_t *ctx, void *state, uint32_t index, rigor_mark_kind_t kind);
  /* After complete(): seconds of each of `iters` iterations from the marks. */
  int (*mark_read)(rigor_ctx_t *ctx, void *state, double *seconds, uint32_t iters);
  /* After the window: one value per metric, the static table's then declare_metrics' (NaN for
   * none). */
  int (*metrics_read)(rigor_ctx_t *ctx, void *state, const void *point, double *values);

  /* Appended in rigor 0.1.0 (ABI 1), after its first descriptor: warm_points with
   * timing.warmup_sizes, then check_params, commands and declare_metrics with the exec plugin.
   * A descriptor whose `size` ends before here reads the fields below as NULL. */

  /* Optional, in the child once after init and before the warmup sweep, only when
   * timing.warmup_sizes is not `points` (and timing.warmup > 0): fill `warm` with the params
   * structs the warmup sweep runs instead of the sweep `points` (the core calls run(point, 1)
   * timing.warmup times on each, then complete, untimed). The plugin owns them until fini. A
   * plugin without the hook fails such a run. */
  int (*warm_points)(rigor_ctx_t *ctx, void *state, rigor_warmup_sizes_t sizes,
                     const rigor_points_t *points, rigor_points_t *warm);

  /* Optional, called by the config language before anything runs, once per variant, with the
   * structs init would receive (no ctx: nothing is running). Checks what a schema cannot say
   * (a required list, names that must match across params). On failure write a message to err,
   * set *param to the name of the param at fault (or leave it NULL) and return a negative code:
   * the language reports "file:line:col: message" at the node that set that param. */
  int (*check_params)(const void *params, const rigor_points_t *points, char *err, size_t errlen,
                      const char **param);
  /* Optional, with RIGOR_PLUGIN_RUNS_COMMANDS: the external commands a run with these params
   * would execute, one per line into out (NUL-terminated, cut at cap). Returns how many (0: this
   * configuration runs none). Called by the config language for `rigor plan` and the
   * --allow-commands gate; a flagged plugin without this hook is taken to run commands always. */
  int (*commands)(const void *params, const rigor_points_t *points, char *out, size_t cap);
  /* Optional: metrics that depend on the params, recorded after the static table's. Called with
   * a run's base params, in the run's process before init and by the parent for the experiment
   * record. Fill at most cap entries and return the count; names must differ from the table's. */
  int (*declare_metrics)(const void *params, rigor_metric_decl_t *out, uint32_t cap);
  /* Appended in rigor 0.1.0 (ABI 1), after its first descriptor, with the primary metric: read
   * as NULL from plugins built before it. */
  /* The name of one of `metrics` that is this plugin's figure of merit (pto_vf: the VF total in
   * cycles). Report, gate, contrasts, compare and rounds judge it, in the direction its `better`
   * says, instead of the window time, which stays reported. NULL: the window time. */
  const char *primary_metric;

  /* Appended in rigor 0.1.0 (ABI 1), after its first descriptor: read as 0 (inferred) from plugins
   * built before it. */
  /* enum rigor_plugin_caps bits, with RIGOR_CAP_DECLARED; 0 lets the core infer them. */
  uint32_t capabilities;

  /* Appended in rigor 0.1.0 (ABI 1), before its first release, with interleaved arms: read as
   * NULL from plugins built before it. */
  /* Optional, with RIGOR_CAP_FOOTPRINT: the bytes of memory one instance with these params holds
   * at once (its arrays and buffers, over the whole sweep), or 0 when it cannot say. Called by
   * the config language before anything runs (no ctx): `rigor plan` shows it, and an interleaved
   * run whose arms together need more than the machine has available is refused. */
  uint64_t (*footprint)(const void *params, const rigor_points_t *points);
} rigor_plugin_t;

/* The single exported symbol. */
typedef const rigor_plugin_t *(*rigor_plugin_get_fn)(uint32_t index);
#define RIGOR_PLUGIN_GET_SYMBOL "rigor_plugin_get"
RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index);

#ifdef __cplusplus
}
#endif
#endif
