#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "language_internal.h"
#include "canonical.h"
#include "digest.h"

/* The walk is bounded: the loader refuses documents that expand to more than
 * RIGOR_CONFIG_MAX_NODES nodes or nest deeper than RIGOR_CONFIG_MAX_DEPTH. */
static json_t *tree_json(const rigor__node_t *n) {
  if (n->kind == RIGOR__SCALAR) return rigor__is_null(n) ? json_null() : json_string(n->text);
  json_t *out = n->kind == RIGOR__MAP ? json_object() : json_array();
  for (size_t i = 0; out && i < n->n; i++) {
    json_t *item = tree_json(n->items[i]);
    int rc = n->kind == RIGOR__MAP ? json_object_set_new(out, n->keys[i]->text, item)
                                   : json_array_append_new(out, item);
    if (!item || rc != 0) {
      json_decref(out);
      return NULL;
    }
  }
  return out;
}

int rigor__tree_sha256(const rigor__node_t *tree, char hex[65]) {
  json_t *doc = tree_json(tree);
  int rc = rigor_canonical_sha256(doc, hex);
  json_decref(doc);
  return rc;
}

bool rigor__is_sha256(const char *text) {
  size_t n = 0;
  for (; text[n]; n++)
    if (!isxdigit((unsigned char)text[n])) return false;
  return n == 64;
}

int rigor_config_base_hash(const char *path, const rigor_config_opts_t *opts, char hex[65],
                           char *err, size_t errlen) {
  static const rigor_config_opts_t no_opts = {0};
  if (err && errlen) err[0] = '\0';
  rigor__cfg_t c = {.opts = opts ? opts : &no_opts, .err = err, .errlen = errlen};
  rigor__node_t *root = NULL;
  int rc = (c.warnings = json_array()) ? rigor__load_file(&c, path, NULL, &root) : RIGOR_ENOMEM;
  if (!rc) rc = rigor__base_hash(&c, root, hex);
  rigor__arena_free(&c);
  json_decref(c.warnings);
  if (rc == RIGOR_ENOMEM) snprintf(err, errlen, "%s: out of memory", path);
  return rc ? RIGOR_ECONFIG : 0;
}
