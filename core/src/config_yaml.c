#include "config_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "units.h"

struct rigor__chunk {
  struct rigor__chunk *next;
  size_t used, cap;
  max_align_t data[];
};

void *rigor__alloc(rigor__cfg_t *c, size_t size) {
  size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  rigor__chunk_t *k = c->arena;
  if (!k || k->cap - k->used < size) {
    size_t cap = size > 65536 ? size : 65536;
    k = malloc(sizeof *k + cap);
    if (!k) return NULL;
    k->next = c->arena;
    k->used = 0;
    k->cap = cap;
    c->arena = k;
  }
  void *p = (char *)k->data + k->used;
  k->used += size;
  memset(p, 0, size);
  return p;
}

char *rigor__strdup(rigor__cfg_t *c, const char *s) {
  size_t n = strlen(s) + 1;
  char *p = rigor__alloc(c, n);
  if (p) memcpy(p, s, n);
  return p;
}

void rigor__arena_free(rigor__cfg_t *c) {
  while (c->arena) {
    rigor__chunk_t *next = c->arena->next;
    free(c->arena);
    c->arena = next;
  }
  while (c->sources) {
    rigor__source_t *next = c->sources->next;
    free(c->sources->path);
    free(c->sources->real);
    free(c->sources->text);
    free(c->sources);
    c->sources = next;
  }
}

/* ---- diagnostics ------------------------------------------------------------------------- */

static void append_source_line(char *out, size_t cap, const rigor__source_t *src, uint32_t line,
                               uint32_t col) {
  const char *p = src->text, *end = src->text + src->len;
  for (uint32_t l = 0; l < line && p < end; p++)
    if (*p == '\n') l++;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  if (!eol) eol = end;
  size_t n = (size_t)(eol - p), used = strlen(out);
  if (n > 200) n = 200;
  char caret[256];
  size_t k = 0;
  for (uint32_t i = 0; i < col && k < sizeof caret - 2; i++)
    caret[k++] = (i < n && p[i] == '\t') ? '\t' : ' ';
  caret[k++] = '^';
  caret[k] = '\0';
  char line_text[256];
  size_t m = 0;
  for (size_t i = 0; i < n && m < sizeof line_text - 1; i++)
    line_text[m++] = (p[i] == '\t' || ((unsigned char)p[i] >= 0x20 && p[i] != 0x7f)) ? p[i] : '?';
  line_text[m] = '\0';
  snprintf(out + used, cap > used ? cap - used : 0, "\n  %s\n  %s", line_text, caret);
}

static int vfail(rigor__cfg_t *c, const rigor__source_t *src, uint32_t line, uint32_t col,
                 const char *fmt, va_list ap) {
  if (c->failed || !c->err || c->errlen == 0) {
    c->failed = true;
    return RIGOR_ECONFIG;
  }
  c->failed = true;
  int n = 0;
  if (src) n = snprintf(c->err, c->errlen, "%s:%u:%u: ", src->path, line + 1, col + 1);
  if (n < 0 || (size_t)n >= c->errlen) return RIGOR_ECONFIG;
  vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
  if (src) append_source_line(c->err, c->errlen, src, line, col);
  return RIGOR_ECONFIG;
}

int rigor__fail(rigor__cfg_t *c, const rigor__node_t *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(c, at ? at->src : NULL, at ? at->line : 0, at ? at->col : 0, fmt, ap);
  va_end(ap);
  return RIGOR_ECONFIG;
}

void rigor__warn(rigor__cfg_t *c, const rigor__node_t *at, const char *fmt, ...) {
  char msg[1024];
  int n = 0;
  if (at) n = snprintf(msg, sizeof msg, "%s:%u:%u: ", at->src->path, at->line + 1, at->col + 1);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  va_end(ap);
  json_array_append_new(c->warnings, json_string(msg));
}

/* ---- did you mean ------------------------------------------------------------------------ */

static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return SIZE_MAX;
  size_t row[65];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (row[j] + 1 < best) best = row[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

const char *rigor__closest(const char *word, const char *const *candidates, size_t n) {
  const char *best = NULL;
  size_t best_d = SIZE_MAX, limit = strlen(word) <= 4 ? 1 : strlen(word) / 3 + 1;
  for (size_t i = 0; i < n && candidates[i]; i++) {
    size_t d = edit_distance(word, candidates[i]);
    if (d < best_d) best_d = d, best = candidates[i];
  }
  return best_d <= limit ? best : NULL;
}

/* ---- YAML to nodes ----------------------------------------------------------------------- */

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

/* ---- node helpers ------------------------------------------------------------------------ */

const rigor__node_t *rigor__get(const rigor__node_t *map, const char *key) {
  if (!map || map->kind != RIGOR__MAP) return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->keys[i]->text, key) == 0) return map->items[i];
  return NULL;
}

bool rigor__is_null(const rigor__node_t *n) {
  return n && n->kind == RIGOR__SCALAR && n->plain &&
         (n->text[0] == '\0' || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
          strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0);
}

const char *rigor__kind_name(const rigor__node_t *n) {
  if (rigor__is_null(n)) return "null";
  return n->kind == RIGOR__MAP ? "mapping" : n->kind == RIGOR__SEQ ? "list" : "scalar";
}

int rigor__expect(rigor__cfg_t *c, const rigor__node_t *n, rigor__kind_t kind, const char *what) {
  if (n->kind == kind && !(kind == RIGOR__SCALAR && rigor__is_null(n))) return 0;
  static const char *const names[] = {"a scalar", "a mapping", "a list"};
  return rigor__fail(c, n, "%s must be %s, not a %s", what, names[kind], rigor__kind_name(n));
}

int rigor__check_keys(rigor__cfg_t *c, const rigor__node_t *map, const char *const *allowed,
                      const char *where) {
  size_t n_allowed = 0;
  while (allowed[n_allowed])
    n_allowed++;
  for (size_t i = 0; i < map->n; i++) {
    const char *key = map->keys[i]->text;
    bool ok = false;
    for (size_t j = 0; j < n_allowed && !ok; j++)
      ok = strcmp(key, allowed[j]) == 0;
    if (ok) continue;
    const char *near = rigor__closest(key, allowed, n_allowed);
    if (near)
      return rigor__fail(c, map->keys[i], "unknown key '%s' in %s (did you mean '%s'?)", key, where,
                         near);
    return rigor__fail(c, map->keys[i], "unknown key '%s' in %s", key, where);
  }
  return 0;
}

rigor__node_t *rigor__scalar_like(rigor__cfg_t *c, const rigor__node_t *at, const char *text) {
  rigor__node_t *n = rigor__alloc(c, sizeof *n);
  if (!n) return NULL;
  *n = (rigor__node_t){.kind = RIGOR__SCALAR, .src = at->src, .line = at->line, .col = at->col};
  n->text = rigor__strdup(c, text);
  return n->text ? n : NULL;
}

rigor__node_t *rigor__map_without(rigor__cfg_t *c, const rigor__node_t *map, const char *key) {
  rigor__node_t *n = rigor__alloc(c, sizeof *n);
  if (!n) return NULL;
  *n = *map;
  n->n = 0;
  n->keys = rigor__alloc(c, (map->n + 1) * sizeof *n->keys);
  n->items = rigor__alloc(c, (map->n + 1) * sizeof *n->items);
  if (!n->keys || !n->items) return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->keys[i]->text, key) != 0) {
      n->keys[n->n] = map->keys[i];
      n->items[n->n++] = map->items[i];
    }
  return n;
}

static int scalar_or_fail(rigor__cfg_t *c, const rigor__node_t *n, const char *what) {
  return rigor__expect(c, n, RIGOR__SCALAR, what);
}

int rigor__get_uint(rigor__cfg_t *c, const rigor__node_t *n, const char *what, uint64_t min,
                    uint64_t max, uint64_t *out) {
  char msg[256];
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_uint(n->text, out, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  if (*out < min || *out > max)
    return rigor__fail(c, n, "%s must be from %llu to %llu, not %s", what, (unsigned long long)min,
                       (unsigned long long)max, n->text);
  return 0;
}

int rigor__get_bool(rigor__cfg_t *c, const rigor__node_t *n, const char *what, bool *out) {
  char msg[256];
  int v = 0;
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_bool(n->text, &v, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  *out = v != 0;
  return 0;
}

int rigor__get_duration(rigor__cfg_t *c, const rigor__node_t *n, const char *what, double *out) {
  char msg[256];
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_duration(n->text, out, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  if (!(*out > 0)) return rigor__fail(c, n, "%s must be longer than zero", what);
  return 0;
}

int rigor__get_percent(rigor__cfg_t *c, const rigor__node_t *n, const char *what, double min,
                       double max, double *out) {
  char msg[256];
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (rigor_parse_percent(n->text, out, msg, sizeof msg) != 0)
    return rigor__fail(c, n, "%s: %s", what, msg);
  if (*out < min || *out > max)
    return rigor__fail(c, n, "%s must be from %g%% to %g%%, not %s", what, min * 100, max * 100,
                       n->text);
  return 0;
}

int rigor__get_string(rigor__cfg_t *c, const rigor__node_t *n, const char *what, const char **out) {
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  if (n->text[0] == '\0') return rigor__fail(c, n, "%s must not be empty", what);
  *out = n->text;
  return 0;
}

int rigor__get_enum(rigor__cfg_t *c, const rigor__node_t *n, const char *what,
                    const char *const *names, int *out) {
  if (scalar_or_fail(c, n, what)) return RIGOR_ECONFIG;
  size_t count = 0;
  char list[256] = "";
  for (; names[count]; count++) {
    if (strcmp(names[count], n->text) == 0) return *out = (int)count, 0;
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%s", count ? ", " : "", names[count]);
  }
  const char *near = rigor__closest(n->text, names, count);
  if (near)
    return rigor__fail(c, n, "%s: '%s' is not one of %s (did you mean '%s'?)", what, n->text, list,
                       near);
  return rigor__fail(c, n, "%s: '%s' is not one of %s", what, n->text, list);
}
