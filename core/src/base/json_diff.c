#include "json_diff.h"

#include <stdio.h>
#include <stdlib.h>

/* Flattens an object into {"a.b": "canonical text"}. */
static void flatten(const json_t *j, const char *prefix, json_t *out) {
  if (json_is_object(j)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)j, k, v) {
      char path[512];
      snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", k);
      flatten(v, path, out);
    }
    return;
  }
  if (!j) return;
  char *text = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
  json_object_set_new(out, prefix, json_string(text ? text : "?"));
  free(text);
}

json_t *rigor_json_diff(const json_t *base, const json_t *cand, const char *prefix) {
  json_t *fa = json_object(), *fb = json_object(), *diffs = json_array();
  flatten(base, prefix, fa);
  flatten(cand, prefix, fb);
  json_t *both[2] = {fa, fb};
  for (int side = 0; side < 2; side++) {
    const char *k;
    json_t *v;
    json_object_foreach(both[side], k, v) {
      json_t *other = json_object_get(both[1 - side], k);
      if ((side == 1 && other) || (other && json_equal(v, other))) continue;
      json_array_append_new(diffs,
                            json_pack("{s:s, s:O?, s:O?}", "path", k, "base",
                                      json_object_get(fa, k), "cand", json_object_get(fb, k)));
    }
  }
  json_decref(fa);
  json_decref(fb);
  return diffs;
}
