#include "language_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

typedef struct convert {
  rigor__cfg_t *c;
  yaml_document_t *doc;
  const rigor__source_t *src;
  size_t visited;
} convert_t;

static int convert_node(convert_t *cv, yaml_node_t *yn, int depth, rigor__node_t **out) {
  rigor__cfg_t *c = cv->c;
  rigor__node_t *n = rigor__alloc(c, sizeof *n);
  if (!n) return rigor__fail(c, NULL, "out of memory");
  n->src = cv->src;
  n->line = (uint32_t)yn->start_mark.line;
  n->col = (uint32_t)yn->start_mark.column;
  if (++cv->visited > RIGOR_CONFIG_MAX_NODES)
    return rigor__fail(c, n, "document expands to more than %d nodes (aliases nested too deeply?)",
                       RIGOR_CONFIG_MAX_NODES);
  if (depth > RIGOR_CONFIG_MAX_DEPTH)
    return rigor__fail(c, n, "document nests deeper than %d levels", RIGOR_CONFIG_MAX_DEPTH);
  switch (yn->type) {
  case YAML_SCALAR_NODE:
    n->kind = RIGOR__SCALAR;
    if (memchr(yn->data.scalar.value, '\0', yn->data.scalar.length))
      return rigor__fail(c, n, "scalar contains a NUL character");
    n->text = rigor__strdup(c, (const char *)yn->data.scalar.value);
    n->plain = yn->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    return (*out = n) && n->text ? 0 : rigor__fail(c, NULL, "out of memory");
  case YAML_SEQUENCE_NODE: {
    n->kind = RIGOR__SEQ;
    size_t count = (size_t)(yn->data.sequence.items.top - yn->data.sequence.items.start);
    n->items = rigor__alloc(c, (count ? count : 1) * sizeof *n->items);
    if (!n->items) return rigor__fail(c, NULL, "out of memory");
    for (size_t i = 0; i < count; i++) {
      yaml_node_t *child = yaml_document_get_node(cv->doc, yn->data.sequence.items.start[i]);
      int rc = convert_node(cv, child, depth + 1, &n->items[n->n]);
      if (rc) return rc;
      n->n++;
    }
    *out = n;
    return 0;
  }
  case YAML_MAPPING_NODE: {
    n->kind = RIGOR__MAP;
    size_t count = (size_t)(yn->data.mapping.pairs.top - yn->data.mapping.pairs.start);
    n->keys = rigor__alloc(c, (count ? count : 1) * sizeof *n->keys);
    n->items = rigor__alloc(c, (count ? count : 1) * sizeof *n->items);
    if (!n->keys || !n->items) return rigor__fail(c, NULL, "out of memory");
    for (size_t i = 0; i < count; i++) {
      yaml_node_pair_t *pair = &yn->data.mapping.pairs.start[i];
      rigor__node_t *key, *value;
      int rc = convert_node(cv, yaml_document_get_node(cv->doc, pair->key), depth + 1, &key);
      if (rc) return rc;
      if (key->kind != RIGOR__SCALAR)
        return rigor__fail(c, key, "mapping keys must be plain words, not a %s",
                           rigor__kind_name(key));
      for (size_t j = 0; j < n->n; j++)
        if (strcmp(n->keys[j]->text, key->text) == 0)
          return rigor__fail(c, key, "duplicate key '%s' (first given at line %u)", key->text,
                             n->keys[j]->line + 1);
      rc = convert_node(cv, yaml_document_get_node(cv->doc, pair->value), depth + 1, &value);
      if (rc) return rc;
      n->keys[n->n] = key;
      n->items[n->n] = value;
      n->n++;
    }
    *out = n;
    return 0;
  }
  default:
    return rigor__fail(c, n, "unexpected YAML node");
  }
}

static void offset_to_mark(const rigor__source_t *src, size_t offset, uint32_t *line,
                           uint32_t *col) {
  *line = 0, *col = 0;
  for (size_t i = 0; i < offset && i < src->len; i++) {
    if (src->text[i] == '\n')
      (*line)++, *col = 0;
    else
      (*col)++;
  }
}

static int parser_error(rigor__cfg_t *c, const rigor__source_t *src, yaml_parser_t *p) {
  uint32_t line = (uint32_t)p->problem_mark.line, col = (uint32_t)p->problem_mark.column;
  if (p->error == YAML_READER_ERROR) {
    offset_to_mark(src, p->problem_offset, &line, &col);
    rigor__node_t at = {.src = src, .line = line, .col = col};
    return rigor__fail(c, &at, "not a UTF-8 text file: %s", p->problem ? p->problem : "?");
  }
  rigor__node_t at = {.src = src, .line = line, .col = col};
  size_t off = p->problem_mark.index;
  /* libyaml counts characters; the tab test below is only a hint, so a byte offset suffices. */
  bool tab = off < src->len && src->text[off] == '\t';
  if (tab) return rigor__fail(c, &at, "tab character in indentation (YAML allows only spaces)");
  if (p->context)
    return rigor__fail(c, &at, "YAML syntax error: %s %s (line %zu)", p->problem ? p->problem : "?",
                       p->context, (size_t)p->context_mark.line + 1);
  return rigor__fail(c, &at, "YAML syntax error: %s", p->problem ? p->problem : "?");
}

static int read_whole(const char *path, char **text, size_t *len, char *why, size_t whylen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(why, whylen, "%s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    snprintf(why, whylen, "not a regular file");
    return -1;
  }
  if ((uint64_t)st.st_size > RIGOR_CONFIG_MAX_FILE_BYTES) {
    fclose(f);
    snprintf(why, whylen, "larger than %u MiB", RIGOR_CONFIG_MAX_FILE_BYTES >> 20);
    return -1;
  }
  *text = malloc((size_t)st.st_size + 1);
  if (!*text) {
    fclose(f);
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  *len = fread(*text, 1, (size_t)st.st_size, f);
  (*text)[*len] = '\0';
  fclose(f);
  return 0;
}

int rigor__load_file(rigor__cfg_t *c, const char *path, const rigor__node_t *from,
                     rigor__node_t **root) {
  char why[128];
  rigor__source_t *src = calloc(1, sizeof *src);
  if (!src) return rigor__fail(c, from, "out of memory");
  src->next = c->sources;
  c->sources = src;
  src->path = strdup(path);
  src->real = realpath(path, NULL);
  if (!src->path || read_whole(path, &src->text, &src->len, why, sizeof why) != 0) {
    if (from) return rigor__fail(c, from, "cannot read '%s': %s", path, why);
    snprintf(c->err, c->errlen, "%s: cannot read: %s", path, why);
    c->failed = true;
    return RIGOR_ECONFIG;
  }
  yaml_parser_t parser;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&parser)) return rigor__fail(c, NULL, "out of memory");
  yaml_parser_set_input_string(&parser, (const unsigned char *)src->text, src->len);
  int rc = 0;
  if (!yaml_parser_load(&parser, &doc)) {
    rc = parser_error(c, src, &parser);
    yaml_parser_delete(&parser);
    return rc;
  }
  rigor__node_t top = {.src = src};
  yaml_node_t *yroot = yaml_document_get_root_node(&doc);
  if (!yroot) {
    rc =
        rigor__fail(c, &top, "the file is empty (expected a mapping that starts with 'schema: 1')");
  } else {
    convert_t cv = {.c = c, .doc = &doc, .src = src};
    rc = convert_node(&cv, yroot, 0, root);
    if (!rc && (*root)->kind != RIGOR__MAP)
      rc = rigor__fail(c, *root, "the document must be a mapping, not a %s",
                       rigor__kind_name(*root));
  }
  yaml_document_delete(&doc);
  if (!rc) {
    yaml_document_t extra;
    if (!yaml_parser_load(&parser, &extra)) {
      rc = parser_error(c, src, &parser);
    } else {
      yaml_node_t *second = yaml_document_get_root_node(&extra);
      if (second) {
        rigor__node_t at = {.src = src,
                            .line = (uint32_t)second->start_mark.line,
                            .col = (uint32_t)second->start_mark.column};
        rc = rigor__fail(c, &at, "a second YAML document; an experiment file holds one");
      }
      yaml_document_delete(&extra);
    }
  }
  yaml_parser_delete(&parser);
  return rc;
}
