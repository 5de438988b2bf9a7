#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rigor/plugin.h"

int rigor_child_exit_code(rigor_run_status_t status) {
  switch (status) {
  case RIGOR_RUN_OK:
    return RIGOR_CHILD_OK;
  case RIGOR_RUN_INVALID:
    return RIGOR_CHILD_INVALID;
  case RIGOR_RUN_SKIPPED:
    return RIGOR_CHILD_SKIPPED;
  default:
    return RIGOR_CHILD_FAILED;
  }
}

void rigor_wire_send(int fd, json_t *msg) {
  if (fd < 0) {
    json_decref(msg);
    return;
  }
  char *text = json_dumps(msg, JSON_COMPACT);
  json_decref(msg);
  if (!text) return;
  size_t len = strlen(text);
  text[len] = '\n'; /* json_dumps leaves room: the terminator becomes the newline */
  const char *p = text;
  size_t left = len + 1;
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    p += w;
    left -= (size_t)w;
  }
  free(text);
}

json_t *rigor_wire_error(int code, const char *name, const char *message) {
  json_t *m = json_object();
  json_object_set_new(m, "type", json_string("error"));
  json_object_set_new(m, "code", json_integer(code));
  json_object_set_new(m, "name", json_string(name));
  json_object_set_new(m, "message", json_string(message));
  return m;
}

json_t *rigor_wire_end(const rigor_run_end_t *e) {
  json_t *m = json_object();
  json_object_set_new(m, "type", json_string("end"));
  json_object_set_new(m, "status", json_string(rigor_run_status_names[e->status]));
  json_object_set_new(m, "reason", e->reason ? json_string(e->reason) : json_null());
  json_object_set_new(m, "telemetry", e->telemetry ? e->telemetry : json_null());
  json_object_set_new(m, "telemetry_raw", e->telemetry_raw ? e->telemetry_raw : json_null());
  json_object_set_new(m, "plugin_identity",
                      e->plugin_identity ? e->plugin_identity : json_object());
  json_object_set_new(m, "affinity", e->affinity ? e->affinity : json_null());
  json_object_set_new(m, "calibration", e->calibration ? e->calibration : json_null());
  return m;
}

json_t *rigor_wire_where(json_t *slurm) {
  json_t *m = json_object();
  json_object_set_new(m, "type", json_string("where"));
  json_object_set_new(m, "slurm", slurm ? slurm : json_null());
  return m;
}

rigor_wire_kind_t rigor_wire_kind(const json_t *msg) {
  const char *type = json_string_value(json_object_get(msg, "type"));
  if (!type) return RIGOR_WIRE_OTHER;
  if (strcmp(type, "sample") == 0) return RIGOR_WIRE_SAMPLE;
  if (strcmp(type, "error") == 0) return RIGOR_WIRE_ERROR;
  if (strcmp(type, "end") == 0) return RIGOR_WIRE_END;
  if (strcmp(type, "where") == 0) return RIGOR_WIRE_WHERE;
  return RIGOR_WIRE_OTHER;
}

json_t *rigor_wire_spec(const rigor_run_spec_t *s) {
  json_t *spec = json_object();
  json_object_set_new(spec, "experiment", json_string(s->experiment));
  json_object_set_new(spec, "plugin", json_string(s->plugin));
  json_object_set_new(spec, "plugin_dir", json_string(s->plugin_dir));
  json_object_set_new(spec, "settings", json_deep_copy(s->settings));
  json_object_set_new(spec, "run", json_integer(s->run));
  json_object_set_new(spec, "attempt", json_integer(s->attempt));
  json_object_set_new(spec, "block", json_integer(s->block));
  json_object_set_new(spec, "position", json_integer(s->position));
  json_object_set_new(spec, "variant", json_integer(s->variant));
  json_object_set_new(spec, "commands_allowed", json_boolean(s->commands_allowed));
  json_object_set_new(spec, "allow_unsafe", json_boolean(s->allow_unsafe));
  json_object_set_new(spec, "deadline_s", json_real(s->deadline_s));
  if (s->arms) json_object_set_new(spec, "arms", json_deep_copy(s->arms));
  if (s->arm_order) json_object_set_new(spec, "arm_order", json_deep_copy(s->arm_order));
  return spec;
}

static uint32_t index_of(const json_t *doc, const char *key) {
  return (uint32_t)json_integer_value(json_object_get(doc, key));
}

int rigor_wire_spec_read(const json_t *doc, rigor_run_spec_t *s, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  s->experiment = json_string_value(json_object_get(doc, "experiment"));
  s->plugin = json_string_value(json_object_get(doc, "plugin"));
  s->plugin_dir = json_string_value(json_object_get(doc, "plugin_dir"));
  s->settings = json_object_get(doc, "settings");
  if (!s->experiment || !s->plugin || !json_is_object(s->settings)) {
    snprintf(err, errlen, "the spec lacks experiment, plugin or settings");
    return RIGOR_EINVAL;
  }
  s->run = index_of(doc, "run");
  s->attempt = index_of(doc, "attempt");
  s->block = index_of(doc, "block");
  s->position = index_of(doc, "position");
  s->variant = index_of(doc, "variant");
  s->commands_allowed = json_is_true(json_object_get(doc, "commands_allowed"));
  s->allow_unsafe = json_is_true(json_object_get(doc, "allow_unsafe"));
  s->deadline_s = json_number_value(json_object_get(doc, "deadline_s"));
  s->arms = json_object_get(doc, "arms");
  s->arm_order = json_object_get(doc, "arm_order");
  if (s->arms && (!json_is_array(s->arms) || !json_is_object(s->arm_order))) {
    snprintf(err, errlen, "the spec's arms need an arm_order");
    return RIGOR_EINVAL;
  }
  return 0;
}
