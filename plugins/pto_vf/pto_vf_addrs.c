#include "pto_vf_addrs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parse {
  const char *file;
  unsigned line;
  char *err;
  size_t errlen;
} parse_t;

static int fail(parse_t *ps, const char *msg, const char *detail) {
  snprintf(ps->err, ps->errlen, "%s:%u: %s%s", ps->file, ps->line, msg, detail ? detail : "");
  return -EINVAL;
}

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

static bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

/* Only whitespace or a comment may follow a value. */
static bool rest_is_empty(const char *p, const char *end) {
  p = skip_ws(p, end);
  return p == end || *p == '#';
}

static int parse_u64(const char *p, const char *end, int base, uint64_t *out, const char **stop) {
  char buf[32];
  size_t n = 0;
  while (p + n < end && n < sizeof buf - 1 &&
         ((p[n] >= '0' && p[n] <= '9') ||
          (base == 16 && ((p[n] >= 'a' && p[n] <= 'f') || (p[n] >= 'A' && p[n] <= 'F')))))
    n++;
  if (n == 0 || n == sizeof buf - 1) return -1;
  memcpy(buf, p, n);
  buf[n] = '\0';
  errno = 0;
  unsigned long long v = strtoull(buf, NULL, base);
  if (errno) return -1;
  *out = v;
  *stop = p + n;
  return 0;
}

typedef struct table_state {
  bool open, has_addr, has_size;
  unsigned header_line;
} table_state_t;

static int close_table(parse_t *ps, vf_addrs_t *out, table_state_t *t) {
  if (!t->open) return 0;
  if (!t->has_addr || !t->has_size) {
    snprintf(ps->err, ps->errlen, "%s:%u: table [%s] needs both addr and size_bytes", ps->file,
             t->header_line, out->buffers[out->n - 1].name);
    return -EINVAL;
  }
  t->open = false;
  return 0;
}

static int parse_header(parse_t *ps, const char *p, const char *end, vf_addrs_t *out,
                        table_state_t *t) {
  const char *name = ++p;
  while (p < end && is_bare_key_char(*p))
    p++;
  size_t n = (size_t)(p - name);
  if (n == 0 || p == end || *p != ']')
    return fail(ps, "expected [name] with a bare name (letters, digits, '_', '-')", NULL);
  if (n >= sizeof out->buffers[0].name) return fail(ps, "table name too long", NULL);
  if (!rest_is_empty(p + 1, end)) return fail(ps, "unexpected text after table header", NULL);
  for (size_t i = 0; i < out->n; i++)
    if (strlen(out->buffers[i].name) == n && memcmp(out->buffers[i].name, name, n) == 0)
      return fail(ps, "duplicate table ", out->buffers[i].name);
  vf_buffer_t *b = realloc(out->buffers, (out->n + 1) * sizeof *b);
  if (!b) return -ENOMEM;
  out->buffers = b;
  memset(&b[out->n], 0, sizeof *b);
  memcpy(b[out->n].name, name, n);
  out->n++;
  *t = (table_state_t){.open = true, .header_line = ps->line};
  return 0;
}

static int parse_pair(parse_t *ps, const char *p, const char *end, vf_addrs_t *out,
                      table_state_t *t) {
  const char *key = p;
  while (p < end && is_bare_key_char(*p))
    p++;
  size_t klen = (size_t)(p - key);
  if (klen == 0) return fail(ps, "expected key = value", NULL);
  p = skip_ws(p, end);
  if (p == end || *p != '=') return fail(ps, "expected '=' after key", NULL);
  p = skip_ws(p + 1, end);
  if (!t->open) return fail(ps, "key outside a [buffer] table", NULL);
  vf_buffer_t *b = &out->buffers[out->n - 1];
  const char *stop;
  if (klen == 4 && memcmp(key, "addr", 4) == 0) {
    if (t->has_addr) return fail(ps, "duplicate key addr", NULL);
    if (end - p < 4 || p[0] != '"' || p[1] != '0' || (p[2] != 'x' && p[2] != 'X') ||
        parse_u64(p + 3, end, 16, &b->base, &stop) != 0 || stop == end || *stop != '"')
      return fail(ps, "addr must be a string holding a hex address, like \"0x1000\"", NULL);
    t->has_addr = true;
    p = stop + 1;
  } else if (klen == 10 && memcmp(key, "size_bytes", 10) == 0) {
    if (t->has_size) return fail(ps, "duplicate key size_bytes", NULL);
    if (parse_u64(p, end, 10, &b->size, &stop) != 0)
      return fail(ps, "size_bytes must be a decimal integer", NULL);
    t->has_size = true;
    p = stop;
  } else {
    return fail(ps, "unknown key (expected addr or size_bytes)", NULL);
  }
  if (!rest_is_empty(p, end)) return fail(ps, "unexpected text after value", NULL);
  return 0;
}

int vf_addrs_parse(const char *text, size_t len, const char *file, vf_addrs_t *out, char *err,
                   size_t errlen) {
  memset(out, 0, sizeof *out);
  parse_t ps = {file, 0, err, errlen};
  table_state_t t = {0};
  const char *p = text;
  const char *end = text + len;
  int rc = 0;
  while (rc == 0 && p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    const char *le = line_end;
    if (le > p && le[-1] == '\r') le--;
    ps.line++;
    const char *q = skip_ws(p, le);
    if (q < le && *q == '[') {
      rc = close_table(&ps, out, &t);
      if (rc == 0) rc = parse_header(&ps, q, le, out, &t);
    } else if (q < le && *q != '#') {
      rc = parse_pair(&ps, q, le, out, &t);
    }
    p = nl ? nl + 1 : end;
  }
  if (rc == 0) rc = close_table(&ps, out, &t);
  if (rc) vf_addrs_free(out);
  return rc;
}

int vf_addrs_load(const char *path, vf_addrs_t *out, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -ENOENT;
  }
  char *text = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 4096;
      char *t = realloc(text, cap);
      if (!t) {
        free(text);
        fclose(f);
        return -ENOMEM;
      }
      text = t;
    }
    size_t got = fread(text + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  fclose(f);
  int rc = vf_addrs_parse(text, len, path, out, err, errlen);
  free(text);
  return rc;
}

void vf_addrs_free(vf_addrs_t *a) {
  free(a->buffers);
  memset(a, 0, sizeof *a);
}

const char *vf_addrs_lookup(const vf_addrs_t *a, uint64_t addr) {
  for (size_t i = 0; i < a->n; i++)
    if (addr >= a->buffers[i].base && addr - a->buffers[i].base < a->buffers[i].size)
      return a->buffers[i].name;
  return NULL;
}
