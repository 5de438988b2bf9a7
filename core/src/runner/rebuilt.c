#include "rebuilt.h"

#include <stdio.h>
#include <string.h>

#include "rigor/plugin.h"

static const char *sha_of(const json_t *described) {
  return json_string_value(json_object_get(described, "sha256"));
}

static const json_t *build_labelled(const json_t *builds, const char *label) {
  size_t i;
  const json_t *b;
  json_array_foreach(builds, i, b) {
    const char *l = json_string_value(json_object_get(b, "label"));
    if (l && label && strcmp(l, label) == 0) return b;
  }
  return NULL;
}

/* Adds one plugin's entry to *changed when its hash differs; a record without a hash (written
 * before hashes were kept) has nothing to compare. */
static void compare(const json_t *then, const json_t *now, const char *label, json_t *changed) {
  const char *had = sha_of(then), *has = sha_of(now);
  if (!had || !*had || !has || strcmp(had, has) == 0) return;
  json_array_append_new(changed, json_pack("{s:s?, s:s?, s:s, s:s}", "build", label, "file",
                                           json_string_value(json_object_get(now, "file")),
                                           "recorded", had, "now", has));
}

int rigor_rebuilt_check(const json_t *recorded_plugin, const json_t *recorded_builds,
                        const json_t *plugin, const json_t *builds, bool allow, json_t **changed,
                        char *err, size_t errlen) {
  *changed = NULL;
  json_t *list = json_array();
  if (!list) return RIGOR_ENOMEM;
  if (json_array_size(builds) > 0) {
    size_t i;
    const json_t *b;
    json_array_foreach(builds, i, b) {
      const char *label = json_string_value(json_object_get(b, "label"));
      compare(build_labelled(recorded_builds, label), b, label, list);
    }
  } else {
    compare(recorded_plugin, plugin, NULL, list);
  }
  if (json_array_size(list) == 0) {
    json_decref(list);
    return 0;
  }
  if (allow) {
    *changed = list;
    return 0;
  }
  const json_t *first = json_array_get(list, 0);
  const char *label = json_string_value(json_object_get(first, "build"));
  char which[512] = "";
  if (label) snprintf(which, sizeof which, " of build '%s'", label);
  snprintf(err, errlen,
           "the plugin%s (%s) changed since the results file began: it recorded sha256 %s, the "
           "file has sha256 %s now%s; put the recorded build back, start over (--force or another "
           "-o), or pass --allow-rebuilt to go on with it knowingly (its runs record both hashes)",
           which, json_string_value(json_object_get(first, "file")),
           json_string_value(json_object_get(first, "recorded")),
           json_string_value(json_object_get(first, "now")),
           json_array_size(list) > 1 ? " (and others)" : "");
  json_decref(list);
  return RIGOR_ECONFIG;
}
