#include "describe.h"

#include "digest.h"

const char *rigor_param_type_name(rigor_param_type_t type) {
  static const char *const names[] = {"?",      "bool", "int",    "uint",
                                      "double", "size", "string", "enum"};
  return type >= RIGOR_PARAM_BOOL && type <= RIGOR_PARAM_ENUM ? names[type] : names[0];
}

json_t *rigor_plugin_describe(const rigor_loaded_t *lp) {
  const rigor_plugin_t *p = &lp->desc;
  json_t *params = json_array();
  for (uint32_t i = 0; i < p->n_params; i++) {
    const rigor_param_t *q = &p->params[i];
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(q->name));
    json_object_set_new(o, "type", json_string(rigor_param_type_name(q->type)));
    json_object_set_new(o, "default", q->def ? json_string(q->def) : json_null());
    json_array_append_new(params, o);
  }
  json_t *metrics = json_array();
  for (uint32_t i = 0; i < p->n_metrics; i++) {
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(p->metrics[i].name));
    json_object_set_new(o, "unit", json_string(p->metrics[i].unit ? p->metrics[i].unit : ""));
    json_object_set_new(
        o, "better",
        json_string(p->metrics[i].better == RIGOR_HIGHER_IS_BETTER ? "higher" : "lower"));
    json_array_append_new(metrics, o);
  }
  json_t *o = json_object();
  json_object_set_new(o, "params", params);
  json_object_set_new(o, "metrics", metrics);
  if (p->primary_metric) json_object_set_new(o, "primary_metric", json_string(p->primary_metric));
  json_object_set_new(o, "name", json_string(p->name));
  json_object_set_new(o, "version", json_string(p->version ? p->version : ""));
  json_object_set_new(o, "file", json_string(lp->path));
  char sha[65] = "";
  rigor_file_sha256(lp->path, sha);
  json_object_set_new(o, "sha256", json_string(sha));
  return o;
}
