/* Where two JSON documents differ, by dotted path. */
#ifndef RIGOR_JSON_DIFF_H
#define RIGOR_JSON_DIFF_H

#include <jansson.h>

/* An array of {"path", "base", "cand"}: each leaf (non-object value) whose canonical text
 * differs or that exists on one side only, paths prefixed by `prefix` ("" for none); "base" or
 * "cand" is null where the leaf is absent. Objects are descended, arrays compared whole. */
json_t *rigor_json_diff(const json_t *base, const json_t *cand, const char *prefix);

#endif
