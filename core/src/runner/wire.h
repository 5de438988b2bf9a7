/* The wire between a run's process and the parent: the spec that starts a run as a new program,
 * the messages the run sends back (one JSON object per line), and the run's exit codes.
 *
 *   sample  the sample record, stamped (format.h), written to the results file as it comes
 *   error   {"type": "error", "code", "name", "message"}: the plugin's first error
 *   where   {"type": "where", "slurm"}: where the run's rank 0 runs (slurm.h), its first line
 *           under Slurm, so that a run killed before its end still says which job it was
 *   end     {"type": "end", "status", "reason", "telemetry", "telemetry_raw",
 *            "plugin_identity", "affinity", "calibration"}: the run's outcome, its last line
 *
 * A forked run inherits the parent's loaded plugin and settings and needs no spec; a run under a
 * launcher, or with a padded environment, is `rigor __child SPEC` and reads everything from it. */
#ifndef RIGOR_WIRE_H
#define RIGOR_WIRE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "format.h"

/* Exit codes of a run's process; the parent reads the `end` message first. */
enum {
  RIGOR_CHILD_OK = 0,
  RIGOR_CHILD_FAILED = 1,
  RIGOR_CHILD_BAD_SPEC = 2, /* the spec could not be read */
  RIGOR_CHILD_INVALID = 3,
  RIGOR_CHILD_SKIPPED = 5,
};
int rigor_child_exit_code(rigor_run_status_t status);

/* Writes one message as one line and releases it; the pipe has a single writer, so lines never
 * interleave. fd < 0 drops the message. */
void rigor_wire_send(int fd, json_t *msg);
json_t *rigor_wire_error(int code, const char *name, const char *message);
/* What a run's end message holds; every member but status may be NULL. */
typedef struct rigor_run_end {
  rigor_run_status_t status;
  const char *reason;
  json_t *telemetry, *telemetry_raw, *plugin_identity, *affinity;
  json_t *calibration; /* iters: auto: the windows each point's count came from */
} rigor_run_end_t;
/* The end message; it takes the json_t members. */
json_t *rigor_wire_end(const rigor_run_end_t *e);
/* The where message; it takes `slurm`. */
json_t *rigor_wire_where(json_t *slurm);

typedef enum {
  RIGOR_WIRE_OTHER = 0,
  RIGOR_WIRE_SAMPLE,
  RIGOR_WIRE_ERROR,
  RIGOR_WIRE_END,
  RIGOR_WIRE_WHERE
} rigor_wire_kind_t;
rigor_wire_kind_t rigor_wire_kind(const json_t *msg);

/* Which run a process is, and with what. */
typedef struct rigor_run_spec {
  const char *experiment;
  const char *plugin, *plugin_dir;
  const json_t *settings; /* the variant's resolved settings */
  uint32_t run, attempt, block, position, variant;
  bool commands_allowed, allow_unsafe;
  double deadline_s; /* the experiment's time left, 0 for none */
  /* Interleaved arms (child.h): [{variant, settings, plugin_file}] in arm order, plugin_file
   * null for an arm of the plugin above, and {square: [[arm, ...], ...], first_row}, the order
   * of the arms in the cycles. Both NULL for a run of one instance. */
  const json_t *arms, *arm_order;
} rigor_run_spec_t;
json_t *rigor_wire_spec(const rigor_run_spec_t *s);
/* Reads a spec; its strings and settings point into `doc`. */
int rigor_wire_spec_read(const json_t *doc, rigor_run_spec_t *s, char *err, size_t errlen);

#endif
