#include "describe.h"

#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "metric_set.h"
#include "params.h"

const char *rigor_param_type_name(rigor_param_type_t type) {
  static const char *const names[] = {"?",    "bool",   "int",  "uint", "double",
                                      "size", "string", "enum", "json"};
  return type >= RIGOR_PARAM_BOOL && type <= RIGOR_PARAM_JSON ? names[type] : names[0];
}

const char *rigor_better_name(int better) {
  return better == RIGOR_HIGHER_IS_BETTER ? "higher"
         : better == RIGOR_NOT_A_FIGURE   ? "none"
                                          : "lower";
}

static json_t *metric_json(const rigor_metric_t *m) {
  json_t *o = json_object();
  json_object_set_new(o, "name", json_string(m->name));
  json_object_set_new(o, "unit", json_string(m->unit ? m->unit : ""));
  json_object_set_new(o, "better", json_string(rigor_better_name(m->better)));
  return o;
}

int rigor_plugin_describe_declared(json_t *desc, const rigor_plugin_t *d, const json_t *params,
                                   char *err, size_t errlen) {
  if (!d->declare_metrics) return 0;
  void *filled = calloc(1, d->params_size ? d->params_size : 1);
  if (!filled) return RIGOR_ENOMEM;
  int rc = rigor_params_fill(d, params, filled, err, errlen);
  rigor_metric_set_t set = {0};
  if (!rc) rc = rigor_metric_set_build(d, filled, &set, err, errlen);
  json_t *list = json_object_get(desc, "metrics");
  for (uint32_t i = d->n_metrics; !rc && i < set.n; i++) {
    bool listed = false;
    size_t k;
    json_t *m;
    json_array_foreach(list, k, m) {
      listed =
          listed || strcmp(json_string_value(json_object_get(m, "name")), set.all[i].name) == 0;
    }
    if (!listed) json_array_append_new(list, metric_json(&set.all[i]));
  }
  rigor_metric_set_free(&set);
  rigor_params_clear(d, filled);
  free(filled);
  return rc;
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
  for (uint32_t i = 0; i < p->n_metrics; i++)
    json_array_append_new(metrics, metric_json(&p->metrics[i]));
  json_t *o = json_object();
  json_object_set_new(o, "params", params);
  json_object_set_new(o, "metrics", metrics);
  if (p->primary_metric) json_object_set_new(o, "primary_metric", json_string(p->primary_metric));
  json_object_set_new(o, "name", json_string(p->name));
  json_object_set_new(o, "version", json_string(p->version ? p->version : ""));
  json_object_set_new(o, "file", json_string(lp->origin));
  /* The bytes mapped: the snapshot's copy while one is open, which nothing can change. */
  char sha[65] = "";
  rigor_file_sha256(lp->path, sha);
  json_object_set_new(o, "sha256", json_string(sha));
  return o;
}
