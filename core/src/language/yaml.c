#include "language_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* What a YAML node converted to, and how much of the document its expansion amounts to, so that
 * an alias shares the node instead of copying it, yet still counts against the bounds. */
typedef struct converted {
  rigor__node_t *node;
  size_t nodes, bytes;
} converted_t;

typedef struct convert {
  rigor__cfg_t *c;
  yaml_document_t *doc;
  const rigor__source_t *src;
  converted_t *memo; /* by node index */
  size_t visited, bytes;
} convert_t;

static int convert_fresh(convert_t *cv, yaml_node_t *yn, int depth, rigor__node_t **out);

static int expansion_bounds(convert_t *cv, const rigor__node_t *at) {
  if (cv->visited > RIGOR_CONFIG_MAX_NODES)
    return rigor__fail(cv->c, at,
                       "document expands to more than %d nodes (aliases nested too deeply?)",
                       RIGOR_CONFIG_MAX_NODES);
  if (cv->bytes > RIGOR_CONFIG_MAX_EXPANDED_BYTES)
    return rigor__fail(cv->c, at, "aliases expand the document to more than %u MiB of text",
                       RIGOR_CONFIG_MAX_EXPANDED_BYTES >> 20);
  return 0;
}

/* Every node converts once; an alias to it shares the result and adds its size to the bounds. */
static int convert_node(convert_t *cv, yaml_node_t *yn, int depth, rigor__node_t **out) {
  converted_t *m = &cv->memo[yn - cv->doc->nodes.start];
  if (m->node) {
    cv->visited += m->nodes;
    cv->bytes += m->bytes;
    *out = m->node;
    return expansion_bounds(cv, m->node);
  }
  size_t nodes = cv->visited, bytes = cv->bytes;
  int rc = convert_fresh(cv, yn, depth, out);
  if (rc) return rc;
  *m = (converted_t){*out, cv->visited - nodes, cv->bytes - bytes};
  return 0;
}

static int convert_fresh(convert_t *cv, yaml_node_t *yn, int depth, rigor__node_t **out) {
  rigor__cfg_t *c = cv->c;
  rigor__node_t *n = rigor__alloc(c, sizeof *n);
  if (!n) return rigor__fail(c, NULL, "out of memory");
  n->src = cv->src;
  n->line = (uint32_t)yn->start_mark.line;
  n->col = (uint32_t)yn->start_mark.column;
  cv->visited++;
  if (yn->type == YAML_SCALAR_NODE) cv->bytes += yn->data.scalar.length;
  int rc = expansion_bounds(cv, n);
  if (rc) return rc;
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
      rc = convert_node(cv, child, depth + 1, &n->items[n->n]);
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
      rc = convert_node(cv, yaml_document_get_node(cv->doc, pair->key), depth + 1, &key);
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

/* Reads the whole file. The open never blocks (a FIFO named as a config would wait forever for
 * a writer) and what is not a regular file is refused before anything is read. */
static int read_whole(const char *path, char **text, size_t *len, char *why, size_t whylen) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, whylen, "%s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(why, whylen, "%s",
             S_ISDIR(st.st_mode)    ? "it is a folder, not a file"
             : S_ISFIFO(st.st_mode) ? "it is a FIFO, not a file"
                                    : "not a regular file");
    close(fd);
    return -1;
  }
  if ((uint64_t)st.st_size > RIGOR_CONFIG_MAX_FILE_BYTES) {
    close(fd);
    snprintf(why, whylen, "larger than %u MiB", RIGOR_CONFIG_MAX_FILE_BYTES >> 20);
    return -1;
  }
  *text = malloc((size_t)st.st_size + 1);
  if (!*text) {
    close(fd);
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  size_t got = 0;
  while (got < (size_t)st.st_size) {
    ssize_t n = read(fd, *text + got, (size_t)st.st_size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fd);
  *len = got;
  (*text)[got] = '\0';
  return 0;
}

/* libyaml would read UTF-16 through its BOM, but every position and quoted line rigor prints is
 * in bytes of UTF-8 text: such a file is refused with how to convert it. */
static const char *not_utf8(const char *text, size_t len) {
  const unsigned char *u = (const unsigned char *)text;
  if (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
    return "UTF-16";
  if (len >= 4 && ((u[0] == 0 && u[1] == 0 && u[2] == 0xFE && u[3] == 0xFF))) return "UTF-32";
  if (len >= 2 && (u[0] == 0 || u[1] == 0)) return "UTF-16 or UTF-32";
  return NULL;
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
  const char *encoding = not_utf8(src->text, src->len);
  if (encoding) {
    if (from)
      return rigor__fail(c, from,
                         "'%s' is %s text; rigor reads UTF-8 (convert it: iconv -f %s -t UTF-8)",
                         path, encoding, strncmp(encoding, "UTF-32", 6) ? "UTF-16" : "UTF-32");
    snprintf(c->err, c->errlen,
             "%s: is %s text; rigor reads UTF-8 (convert it: iconv -f %s -t UTF-8)", path, encoding,
             strncmp(encoding, "UTF-32", 6) ? "UTF-16" : "UTF-32");
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
    size_t n_nodes = (size_t)(doc.nodes.top - doc.nodes.start);
    convert_t cv = {.c = c, .doc = &doc, .src = src, .memo = calloc(n_nodes, sizeof *cv.memo)};
    rc = cv.memo ? convert_node(&cv, yroot, 0, root) : rigor__fail(c, NULL, "out of memory");
    free(cv.memo);
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
