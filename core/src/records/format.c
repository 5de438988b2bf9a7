#include "format.h"

#include <math.h>
#include <string.h>

#include "clock.h"

const char *const rigor_run_status_names[] = {"ok",      "failed",  "crashed",     "timeout",
                                              "skipped", "invalid", "interrupted", NULL};

rigor_run_status_t rigor_run_status_parse(const char *name) {
  for (int i = 0; name && i < RIGOR_RUN_STATUS_COUNT; i++)
    if (strcmp(name, rigor_run_status_names[i]) == 0) return (rigor_run_status_t)i;
  return RIGOR_RUN_FAILED;
}

bool rigor_run_status_final(rigor_run_status_t s) {
  return s == RIGOR_RUN_OK || s == RIGOR_RUN_SKIPPED || s == RIGOR_RUN_INVALID;
}

const char *const rigor_sample_status_names[] = {"ok", "too_short", "wrong", "invalid", NULL};

rigor_sample_status_t rigor_sample_status_parse(const char *name) {
  for (int i = 0; name && i < RIGOR_SAMPLE_STATUS_COUNT; i++)
    if (strcmp(name, rigor_sample_status_names[i]) == 0) return (rigor_sample_status_t)i;
  return RIGOR_SAMPLE_UNKNOWN;
}

json_t *rigor_record_new(const char *type, const char *experiment) {
  json_t *rec = json_object();
  json_object_set_new(rec, "schema", json_string(RIGOR_RESULT_SCHEMA));
  json_object_set_new(rec, "type", json_string(type));
  json_object_set_new(rec, "experiment", json_string(experiment));
  return rec;
}

void rigor_record_stamp(json_t *rec, const char *experiment, uint32_t run, uint32_t attempt,
                        uint32_t variant) {
  json_object_set_new(rec, "schema", json_string(RIGOR_RESULT_SCHEMA));
  json_object_set_new(rec, "experiment", json_string(experiment));
  json_object_set_new(rec, "run", json_integer(run));
  json_object_set_new(rec, "attempt", json_integer(attempt));
  json_object_set_new(rec, "variant", json_integer(variant));
}

json_t *rigor_record_experiment(const rigor_experiment_record_t *x) {
  json_t *rec = rigor_record_new("experiment", x->name);
  json_object_set_new(rec, "name", json_string(x->name));
  json_object_set_new(rec, "hash", json_string(x->hash));
  json_object_set_new(rec, "source", json_string(x->source ? x->source : ""));
  json_object_set_new(rec, "config", json_deep_copy(x->config));
  json_object_set_new(rec, "variants", json_deep_copy(x->variants));
  json_object_set_new(rec, "schedule", json_deep_copy(x->schedule));
  json_object_set_new(rec, "plugin", x->plugin ? x->plugin : json_object());
  if (x->builds) json_object_set_new(rec, "builds", x->builds);
  json_t *clock = json_object();
  json_object_set_new(clock, "source", json_string("CLOCK_MONOTONIC"));
  json_object_set_new(clock, "resolution_s", json_real(x->clock_resolution_s));
  json_object_set_new(clock, "now_cost_s", json_real(x->clock_now_cost_s));
  json_object_set_new(rec, "clock", clock);
  json_object_set_new(rec, "identity", x->identity ? x->identity : json_object());
  json_object_set_new(rec, "checks", x->checks ? x->checks : json_array());
  char created[32];
  rigor_time_iso(created);
  json_object_set_new(rec, "created", json_string(created));
  json_t *rv = json_object();
  json_object_set_new(rv, "version", json_string(x->rigor_version));
  json_object_set_new(rv, "git", json_string(x->rigor_git));
  json_object_set_new(rec, "rigor", rv);
  return rec;
}

static json_t *or_null(json_t *v) {
  return v ? v : json_null();
}

json_t *rigor_record_run(const rigor_run_record_t *x) {
  json_t *rec = rigor_record_new("run", x->experiment);
  json_object_set_new(rec, "run", json_integer(x->run));
  json_object_set_new(rec, "attempt", json_integer(x->attempt));
  json_object_set_new(rec, "block", json_integer(x->block));
  json_object_set_new(rec, "position", json_integer(x->position));
  json_object_set_new(rec, "variant", json_integer(x->variant));
  json_object_set_new(rec, "label", json_string(x->label));
  json_object_set_new(rec, "status", json_string(rigor_run_status_names[x->status]));
  json_object_set_new(rec, "reason",
                      x->reason && x->reason[0] && x->status != RIGOR_RUN_OK
                          ? json_string(x->reason)
                          : json_null());
  json_object_set_new(rec, "signal", x->signal ? json_integer(x->signal) : json_null());
  json_object_set_new(rec, "exit_code",
                      x->exit_code >= 0 ? json_integer(x->exit_code) : json_null());
  json_object_set_new(rec, "start", json_string(x->start));
  json_object_set_new(rec, "end", json_string(x->end));
  json_object_set_new(rec, "elapsed_s", json_real(x->elapsed_s));
  json_object_set_new(rec, "affinity", or_null(x->affinity));
  json_object_set_new(rec, "noise", or_null(x->noise));
  json_object_set_new(rec, "telemetry", or_null(x->telemetry));
  json_object_set_new(rec, "flags", json_array());
  json_object_set_new(rec, "plugin_identity",
                      x->plugin_identity ? x->plugin_identity : json_object());
  json_object_set_new(rec, "env_pad", x->env_pad >= 0 ? json_integer(x->env_pad) : json_null());
  if (x->checks) json_object_set_new(rec, "checks", x->checks);
  if (x->calibration) json_object_set_new(rec, "calibration", x->calibration);
  if (x->n_arms) {
    json_t *arms = json_array();
    for (uint32_t i = 0; i < x->n_arms; i++)
      json_array_append_new(arms, json_integer(x->arms[i]));
    json_object_set_new(rec, "arms", arms);
  }
  if (x->rebuilt) json_object_set_new(rec, "rebuilt", json_deep_copy(x->rebuilt));
  if (x->slurm) json_object_set_new(rec, "slurm", json_deep_copy(x->slurm));
  return rec;
}

const char *const rigor_stop_reason_names[] = {"precision", "max", "deadline", "decided", NULL};

int rigor_stop_reason_parse(const char *name) {
  for (int i = 0; name && i < RIGOR_STOP_COUNT; i++)
    if (strcmp(name, rigor_stop_reason_names[i]) == 0) return i;
  return -1;
}

bool rigor_stop_final(rigor_stop_reason_t r) {
  return r == RIGOR_STOP_PRECISION || r == RIGOR_STOP_MAX || r == RIGOR_STOP_DECIDED;
}

json_t *rigor_record_stop(const rigor_stop_record_t *x) {
  json_t *rec = rigor_record_new("stop", x->experiment);
  json_object_set_new(rec, "blocks", json_integer(x->blocks));
  json_object_set_new(rec, "min", json_integer(x->min_blocks));
  json_object_set_new(rec, "max", json_integer(x->max_blocks));
  json_object_set_new(rec, "precision", x->precision > 0 ? json_real(x->precision) : json_null());
  json_object_set_new(rec, "reason", json_string(rigor_stop_reason_names[x->reason]));
  if (x->decided > 0) json_object_set_new(rec, "decided", json_real(x->decided));
  json_object_set_new(rec, "worst_half_width_log",
                      isfinite(x->worst_half_width_log) ? json_real(x->worst_half_width_log)
                                                        : json_null());
  char created[32];
  rigor_time_iso(created);
  json_object_set_new(rec, "time", json_string(created));
  json_object_set_new(rec, "targets", x->targets ? x->targets : json_array());
  return rec;
}

json_t *rigor_record_telemetry(const json_t *sample, const char *experiment, uint32_t run,
                               uint32_t attempt) {
  json_t *line = json_deep_copy(sample);
  json_object_set_new(line, "schema", json_string(RIGOR_RESULT_SCHEMA));
  json_object_set_new(line, "type", json_string("telemetry"));
  json_object_set_new(line, "experiment", json_string(experiment));
  json_object_set_new(line, "run", json_integer(run));
  json_object_set_new(line, "attempt", json_integer(attempt));
  return line;
}
