#include "params.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "units.h"

#include "describe.h"

/* Numbers as the param's type reads them, so bounds compare in the param's own domain. */
typedef struct number {
  int64_t i;
  uint64_t u;
  double d;
} number_t;

static int parse_number(const rigor_param_t *p, const char *text, number_t *v, char *msg,
                        size_t len) {
  switch (p->type) {
  case RIGOR_PARAM_INT:
    return rigor_parse_int(text, &v->i, msg, len);
  case RIGOR_PARAM_UINT:
    return rigor_parse_uint(text, &v->u, msg, len);
  case RIGOR_PARAM_SIZE:
    return rigor_parse_size(text, &v->u, msg, len);
  default:
    return rigor_parse_double(text, &v->d, msg, len);
  }
}

static int compare(const rigor_param_t *p, const number_t *a, const number_t *b) {
  switch (p->type) {
  case RIGOR_PARAM_INT:
    return (a->i > b->i) - (a->i < b->i);
  case RIGOR_PARAM_UINT:
  case RIGOR_PARAM_SIZE:
    return (a->u > b->u) - (a->u < b->u);
  default:
    return (a->d > b->d) - (a->d < b->d);
  }
}

static int check_bounds(const rigor_param_t *p, const char *text, const number_t *v, char *err,
                        size_t errlen) {
  const char *bounds[2] = {p->min, p->max};
  for (int k = 0; k < 2; k++) {
    if (!bounds[k]) continue;
    number_t b = {0};
    char msg[128];
    if (parse_number(p, bounds[k], &b, msg, sizeof msg) != 0) {
      snprintf(err, errlen, "param '%s': the plugin's %s bound is malformed: %s", p->name,
               k ? "max" : "min", msg);
      return RIGOR_EINVAL;
    }
    int cmp = compare(p, v, &b);
    if ((k == 0 && cmp < 0) || (k == 1 && cmp > 0)) {
      snprintf(err, errlen, "param '%s': %s is %s the %s %s", p->name, text, k ? "above" : "below",
               k ? "maximum" : "minimum", bounds[k]);
      return RIGOR_ERANGE;
    }
  }
  return 0;
}

int rigor_param_from_text(const rigor_param_t *p, const char *text, json_t **out, char *err,
                          size_t errlen) {
  char msg[256];
  *out = NULL;
  switch (p->type) {
  case RIGOR_PARAM_BOOL: {
    int b = 0;
    if (rigor_parse_bool(text, &b, msg, sizeof msg) != 0) {
      snprintf(err, errlen, "param '%s': %s", p->name, msg);
      return RIGOR_EINVAL;
    }
    *out = json_boolean(b);
    return 0;
  }
  case RIGOR_PARAM_INT:
  case RIGOR_PARAM_UINT:
  case RIGOR_PARAM_SIZE:
  case RIGOR_PARAM_DOUBLE: {
    number_t v = {0};
    int rc = parse_number(p, text, &v, msg, sizeof msg);
    if (rc) {
      snprintf(err, errlen, "param '%s': %s", p->name, msg);
      return rc;
    }
    if ((rc = check_bounds(p, text, &v, err, errlen)) != 0) return rc;
    /* JSON integers are signed 64-bit; larger unsigned values cannot be canonical. */
    if ((p->type == RIGOR_PARAM_UINT || p->type == RIGOR_PARAM_SIZE) && v.u > INT64_MAX) {
      snprintf(err, errlen, "param '%s': %s is above the largest supported value %" PRId64, p->name,
               text, INT64_MAX);
      return RIGOR_ERANGE;
    }
    if (p->type == RIGOR_PARAM_INT)
      *out = json_integer(v.i);
    else if (p->type == RIGOR_PARAM_DOUBLE)
      *out = json_real(v.d);
    else
      *out = json_integer((json_int_t)v.u);
    return *out ? 0 : RIGOR_ENOMEM;
  }
  case RIGOR_PARAM_STRING:
    *out = json_string(text);
    if (!*out) {
      snprintf(err, errlen, "param '%s': the value is not valid UTF-8", p->name);
      return RIGOR_EINVAL;
    }
    return 0;
  case RIGOR_PARAM_JSON: {
    json_error_t je;
    *out = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
    if (!*out) {
      snprintf(err, errlen, "param '%s': not JSON text: %s", p->name, je.text);
      return RIGOR_EINVAL;
    }
    return 0;
  }
  case RIGOR_PARAM_ENUM: {
    size_t n = 0;
    char list[512] = "";
    for (; p->choices[n]; n++) {
      if (strcmp(p->choices[n], text) == 0) {
        *out = json_string(text);
        return 0;
      }
      size_t used = strlen(list);
      snprintf(list + used, sizeof list - used, "%s%s", n ? ", " : "", p->choices[n]);
    }
    const char *near = rigor_closest(text, p->choices, n);
    if (near)
      snprintf(err, errlen, "param '%s': '%s' is not one of %s (did you mean '%s'?)", p->name, text,
               list, near);
    else
      snprintf(err, errlen, "param '%s': '%s' is not one of %s", p->name, text, list);
    return RIGOR_EINVAL;
  }
  }
  snprintf(err, errlen, "param '%s': unknown type %d", p->name, (int)p->type);
  return RIGOR_EINVAL;
}

static char *format_json(const json_t *value) {
  if (json_is_string(value)) return strdup(json_string_value(value));
  return json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
}

char *rigor_param_format(const rigor_param_t *p, const json_t *value) {
  if (p && p->type == RIGOR_PARAM_SIZE && json_is_integer(value) && json_integer_value(value) >= 0)
    return rigor_format_size((uint64_t)json_integer_value(value));
  return format_json(value);
}

const rigor_param_t *rigor_param_lookup(const rigor_plugin_t *d, const char *name) {
  for (uint32_t i = 0; d && i < d->n_params; i++)
    if (strcmp(d->params[i].name, name) == 0) return &d->params[i];
  return NULL;
}

const rigor_param_t *rigor_param_member(const rigor_plugin_t *d, const char *key,
                                        const char **member) {
  const char *dot = key ? strchr(key, '.') : NULL;
  if (!dot || dot == key || !dot[1]) return NULL;
  for (uint32_t i = 0; d && i < d->n_params; i++) {
    const rigor_param_t *p = &d->params[i];
    if (p->type == RIGOR_PARAM_JSON && strlen(p->name) == (size_t)(dot - key) &&
        strncmp(p->name, key, (size_t)(dot - key)) == 0) {
      if (member) *member = dot + 1;
      return p;
    }
  }
  return NULL;
}

int rigor_params_set(const rigor_plugin_t *d, json_t *params, const char *key, json_t *value) {
  const char *member = NULL;
  const rigor_param_t *p = rigor_param_member(d, key, &member);
  if (!p) return json_object_set(params, key, value) == 0 ? 0 : RIGOR_ENOMEM;
  /* A copy, never the object itself: variants share their unchanged parts. */
  json_t *old = json_object_get(params, p->name);
  json_t *obj = json_is_object(old) ? json_copy(old) : json_object();
  if (!obj || json_object_set(obj, member, value) != 0 ||
      json_object_set_new(params, p->name, obj) != 0)
    return RIGOR_ENOMEM;
  return 0;
}

const char *rigor_param_alias(const rigor_param_t *p, const char *text) {
  if (!p || p->type != RIGOR_PARAM_ENUM || !p->aliases) return NULL;
  for (size_t i = 0; p->aliases[i] && p->aliases[i + 1]; i += 2)
    if (strcmp(p->aliases[i], text) == 0) return p->aliases[i + 1];
  return NULL;
}

static json_t *zero_value(const rigor_param_t *p) {
  switch (p->type) {
  case RIGOR_PARAM_BOOL:
    return json_false();
  case RIGOR_PARAM_DOUBLE:
    return json_real(0);
  case RIGOR_PARAM_STRING:
    return json_string("");
  case RIGOR_PARAM_ENUM:
    return json_string(p->choices[0] ? p->choices[0] : "");
  case RIGOR_PARAM_JSON:
    return json_null();
  default:
    return json_integer(0);
  }
}

json_t *rigor_params_defaults(const rigor_plugin_t *d, char *err, size_t errlen) {
  json_t *obj = json_object();
  for (uint32_t i = 0; obj && i < d->n_params; i++) {
    const rigor_param_t *p = &d->params[i];
    json_t *v = NULL;
    if (!p->def) {
      v = zero_value(p);
    } else if (rigor_param_from_text(p, p->def, &v, err, errlen) != 0) {
      char inner[512];
      snprintf(inner, sizeof inner, "%s", err);
      snprintf(err, errlen, "plugin '%s': bad default: %s", d->name, inner);
      json_decref(obj);
      return NULL;
    }
    json_object_set_new(obj, p->name, v);
  }
  return obj;
}

static bool json_matches(const rigor_param_t *p, const json_t *v) {
  switch (p->type) {
  case RIGOR_PARAM_BOOL:
    return json_is_boolean(v);
  case RIGOR_PARAM_INT:
    return json_is_integer(v);
  case RIGOR_PARAM_UINT:
  case RIGOR_PARAM_SIZE:
    return json_is_integer(v) && json_integer_value(v) >= 0;
  case RIGOR_PARAM_DOUBLE:
    return json_is_number(v);
  case RIGOR_PARAM_JSON:
    return v != NULL;
  default:
    return json_is_string(v);
  }
}

/* The values with every "PARAM.KEY" member folded into its JSON param's object. */
static json_t *fold_members(const rigor_plugin_t *d, const json_t *values) {
  json_t *out = values ? json_copy((json_t *)values) : json_object();
  json_t *members = json_object();
  const char *key;
  json_t *v;
  int rc = out && members ? 0 : RIGOR_ENOMEM;
  json_object_foreach(out, key, v) {
    if (!rc && rigor_param_member(d, key, NULL)) rc = json_object_set(members, key, v);
  }
  json_object_foreach(members, key, v) {
    if (!rc) json_object_del(out, key);
    if (!rc) rc = rigor_params_set(d, out, key, v);
  }
  json_decref(members);
  if (rc) json_decref(out);
  return rc ? NULL : out;
}

int rigor_params_fill(const rigor_plugin_t *d, const json_t *values, void *out, char *err,
                      size_t errlen) {
  const char *key;
  json_t *v;
  if (values && !json_is_object(values)) {
    snprintf(err, errlen, "params must be an object");
    return RIGOR_EINVAL;
  }
  json_object_foreach((json_t *)values, key, v) {
    if (!rigor_param_lookup(d, key) && !rigor_param_member(d, key, NULL)) {
      snprintf(err, errlen, "plugin '%s' has no param '%s'", d->name, key);
      return RIGOR_EINVAL;
    }
  }
  json_t *folded = fold_members(d, values);
  if (!folded) {
    snprintf(err, errlen, "out of memory");
    return RIGOR_ENOMEM;
  }
  values = folded;
  json_t *defaults = rigor_params_defaults(d, err, errlen);
  if (!defaults) return json_decref(folded), RIGOR_EINVAL;
  int rc = 0;
  for (uint32_t i = 0; i < d->n_params && rc == 0; i++) {
    const rigor_param_t *p = &d->params[i];
    const json_t *val = values ? json_object_get(values, p->name) : NULL;
    if (!val) val = json_object_get(defaults, p->name);
    if (!json_matches(p, val)) {
      snprintf(err, errlen, "param '%s' must be a %s", p->name, rigor_param_type_name(p->type));
      rc = RIGOR_EINVAL;
      break;
    }
    char *at = (char *)out + p->offset;
    switch (p->type) {
    case RIGOR_PARAM_BOOL:
      *(bool *)at = json_is_true(val);
      break;
    case RIGOR_PARAM_INT:
      *(int64_t *)at = json_integer_value(val);
      break;
    case RIGOR_PARAM_UINT:
    case RIGOR_PARAM_SIZE:
      *(uint64_t *)at = (uint64_t)json_integer_value(val);
      break;
    case RIGOR_PARAM_DOUBLE:
      *(double *)at = json_number_value(val);
      break;
    case RIGOR_PARAM_STRING: {
      char *s = strdup(json_string_value(val));
      if (!s) rc = RIGOR_ENOMEM;
      *(const char **)at = s;
      break;
    }
    case RIGOR_PARAM_JSON: {
      char *s = json_dumps(val, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY |
                                    JSON_REAL_PRECISION(17));
      if (!s) rc = RIGOR_ENOMEM;
      *(const char **)at = s;
      break;
    }
    case RIGOR_PARAM_ENUM: {
      int32_t index = -1;
      for (int32_t k = 0; p->choices[k]; k++)
        if (strcmp(p->choices[k], json_string_value(val)) == 0) index = k;
      if (index < 0) {
        snprintf(err, errlen, "param '%s': '%s' is not a choice", p->name, json_string_value(val));
        rc = RIGOR_EINVAL;
      }
      *(int32_t *)at = index < 0 ? 0 : index;
      break;
    }
    }
  }
  json_decref(defaults);
  json_decref(folded);
  if (rc) rigor_params_clear(d, out);
  return rc;
}

void rigor_params_clear(const rigor_plugin_t *d, void *params) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (d->params[i].type == RIGOR_PARAM_STRING || d->params[i].type == RIGOR_PARAM_JSON) {
      const char **s = (const char **)((char *)params + d->params[i].offset);
      free((void *)*s);
      *s = NULL;
    }
}

json_t *rigor_sweep_points(const json_t *sweep) {
  json_t *points = json_array();
  size_t n_axes = json_array_size(sweep);
  size_t total = 1;
  for (size_t a = 0; a < n_axes; a++)
    total *= json_array_size(json_object_get(json_array_get(sweep, a), "values"));
  for (size_t k = 0; points && k < total; k++) {
    json_t *point = json_object();
    /* Mixed radix with the last axis fastest: the first axis is outermost. */
    size_t rest = k;
    size_t *idx = n_axes ? calloc(n_axes, sizeof *idx) : NULL;
    for (size_t a = n_axes; a-- > 0;) {
      const json_t *values = json_object_get(json_array_get(sweep, a), "values");
      idx[a] = rest % json_array_size(values);
      rest /= json_array_size(values);
    }
    for (size_t a = 0; a < n_axes; a++) {
      const json_t *axis = json_array_get(sweep, a);
      json_object_set(point, json_string_value(json_object_get(axis, "axis")),
                      json_array_get(json_object_get(axis, "values"), idx[a]));
    }
    free(idx);
    json_array_append_new(points, point);
  }
  return points;
}

char *rigor_point_label(const rigor_plugin_t *d, const json_t *point) {
  size_t cap = 64, used = 0;
  char *out = malloc(cap);
  if (!out) return NULL;
  out[0] = '\0';
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)point, key, v) {
    char *text = rigor_param_format(rigor_param_lookup(d, key), v);
    size_t need = used + strlen(key) + strlen(text ? text : "") + 4;
    if (need > cap) {
      cap = need * 2;
      char *grown = realloc(out, cap);
      if (!grown) {
        free(text);
        free(out);
        return NULL;
      }
      out = grown;
    }
    used += (size_t)sprintf(out + used, "%s%s=%s", used ? ", " : "", key, text ? text : "");
    free(text);
  }
  return out;
}
