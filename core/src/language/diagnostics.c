#include "language_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void append_source_line(char *out, size_t cap, const rigor__source_t *src, uint32_t line,
                               uint32_t col) {
  /* Lines end in LF, CR LF or a lone CR, as libyaml counts them. */
  const char *p = src->text, *end = src->text + src->len;
  for (uint32_t l = 0; l < line && p < end; p++)
    if (*p == '\n' || (*p == '\r' && (p + 1 == end || p[1] != '\n'))) l++;
  const char *eol = p;
  while (eol < end && *eol != '\n' && *eol != '\r')
    eol++;
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
  /* A node read twice (a pinned base is expanded for its hash too) warns once. */
  size_t i;
  json_t *seen;
  json_array_foreach(c->warnings, i, seen) if (strcmp(json_string_value(seen), msg) == 0) return;
  json_array_append_new(c->warnings, json_string(msg));
}
