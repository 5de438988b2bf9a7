#include "vf_line.h"

#include <string.h>

typedef struct cursor {
  const char *p;
  const char *end;
} cursor_t;

static void skip_spaces(cursor_t *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
    c->p++;
}

static bool take(cursor_t *c, const char *lit, size_t n) {
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n) != 0) return false;
  c->p += n;
  return true;
}

static int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* Hex digits (at most 16) after an optional "0x"; false when none or too many. */
static bool take_hex(cursor_t *c, uint64_t *value) {
  if (c->end - c->p >= 2 && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X')) c->p += 2;
  uint64_t v = 0;
  int n = 0;
  int d;
  while (c->p < c->end && (d = hex_digit(*c->p)) >= 0) {
    if (++n > 16) return false;
    v = (v << 4) | (uint64_t)d;
    c->p++;
  }
  *value = v;
  return n > 0;
}

/* Decimal digits; false when none or when the value overflows 64 bits. */
static bool take_dec(cursor_t *c, uint64_t *value) {
  uint64_t v = 0;
  const char *start = c->p;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    uint64_t d = (uint64_t)(*c->p - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
    c->p++;
  }
  *value = v;
  return c->p > start;
}

static bool is_word_char(char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
         ch == '_';
}

static vf_pipe_t pipe_lookup(const char *s, size_t n) {
#define PIPE(name, value)                                                                          \
  { name, sizeof name - 1, value }
  static const struct {
    const char *name;
    size_t len;
    vf_pipe_t pipe;
  } table[] = {
      PIPE("SCALAR", VF_PIPE_SCALAR), PIPE("VEC", VF_PIPE_VEC),
      PIPE("VECTOR", VF_PIPE_VECTOR), PIPE("MTE1", VF_PIPE_MTE1),
      PIPE("MTE2", VF_PIPE_MTE2),     PIPE("MTE3", VF_PIPE_MTE3),
      PIPE("FIXP", VF_PIPE_FIXP),     PIPE("CUBE", VF_PIPE_CUBE),
      PIPE("FC", VF_PIPE_FC),         PIPE("FLOWCTRL", VF_PIPE_FLOWCTRL),
      PIPE("ALL", VF_PIPE_ALL),       PIPE("RVECEX", VF_PIPE_RVECEX),
      PIPE("RVECLD", VF_PIPE_RVECLD), PIPE("RVECST", VF_PIPE_RVECST),
      PIPE("RVECSU", VF_PIPE_RVECSU), PIPE("RVECLP", VF_PIPE_RVECLP),
      PIPE("PUSHQ", VF_PIPE_PUSHQ),
  };
#undef PIPE
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].len == n && memcmp(table[i].name, s, n) == 0) return table[i].pipe;
  return VF_PIPE_OTHER;
}

static bool span_is(vf_span_t s, const char *lit) {
  size_t n = strlen(lit);
  return s.len == n && memcmp(s.ptr, lit, n) == 0;
}

static bool is_vf_mnemonic(vf_span_t m) {
  return span_is(m, "VF") || span_is(m, "VFI") || span_is(m, "VF_RU") || span_is(m, "VF_BC") ||
         span_is(m, "VF_PREFETCH") || span_is(m, "VF_SIMT");
}

/* Position just after "key" followed by spaces and ':' or '=', where key is a whole word; NULL
 * when absent. */
static const char *find_key(vf_span_t s, const char *key) {
  size_t klen = strlen(key);
  const char *p = s.ptr;
  const char *end = s.ptr + s.len;
  while ((size_t)(end - p) > klen) {
    const char *hit = memchr(p, key[0], (size_t)(end - p) - klen);
    if (!hit) return NULL;
    if (memcmp(hit, key, klen) == 0 && (hit == s.ptr || !is_word_char(hit[-1]))) {
      const char *q = hit + klen;
      while (q < end && *q == ' ')
        q++;
      if (q < end && (*q == ':' || *q == '=')) return q + 1;
    }
    p = hit + 1;
  }
  return NULL;
}

bool vf_operand_hex(vf_span_t operands, const char *key, uint64_t *value) {
  const char *v = find_key(operands, key);
  if (!v) return false;
  cursor_t c = {v, operands.ptr + operands.len};
  skip_spaces(&c);
  if (!(c.end - c.p >= 2 && c.p[0] == '0' && (c.p[1] == 'x' || c.p[1] == 'X'))) return false;
  return take_hex(&c, value);
}

/* Each VF field has its own optional match: a key that is present must carry a valid value. */
static bool parse_vf_field(vf_span_t ops, const char *key, bool hex, uint32_t bit, uint64_t *value,
                           uint32_t *fields) {
  const char *v = find_key(ops, key);
  if (!v) return true;
  cursor_t c = {v, ops.ptr + ops.len};
  skip_spaces(&c);
  bool ok = hex ? take_hex(&c, value) : take_dec(&c, value);
  if (!ok || (c.p < c.end && is_word_char(*c.p))) return false;
  *fields |= bit;
  return true;
}

static vf_line_status_t parse_vf_fields(vf_line_t *out) {
  vf_span_t ops = out->operands;
  uint32_t f = 0;
  if (!parse_vf_field(ops, "addr", true, VF_FIELD_ADDR, &out->vf_addr, &f) ||
      !parse_vf_field(ops, "instr_num", true, VF_FIELD_INSTR_NUM, &out->vf_instr_num, &f) ||
      !parse_vf_field(ops, "vf_execute_time", false, VF_FIELD_EXEC, &out->vf_execute_time, &f) ||
      !parse_vf_field(ops, "vf_real_execute_time", false, VF_FIELD_REAL_EXEC,
                      &out->vf_real_execute_time, &f))
    return VF_LINE_BAD_VF_FIELD;
  out->vf_fields = f;
  return VF_LINE_OK;
}

vf_line_status_t vf_line_parse(const char *ptr, size_t len, vf_line_t *out) {
  cursor_t c = {ptr, ptr + len};
  while (c.end > c.p && (c.end[-1] == '\r' || c.end[-1] == ' ' || c.end[-1] == '\t'))
    c.end--;
  out->has_id = false;
  out->is_vf = false;
  out->vf_fields = 0;
  skip_spaces(&c);
  if (c.p == c.end) return VF_LINE_BLANK;

  if (take(&c, "[info]", 6)) skip_spaces(&c);
  if (!take(&c, "[", 1)) return VF_LINE_NO_CYCLE;
  const char *digits = c.p;
  if (!take_dec(&c, &out->cycle))
    return c.p > digits || (c.p < c.end && *c.p >= '0' && *c.p <= '9') ? VF_LINE_BAD_CYCLE
                                                                       : VF_LINE_NO_CYCLE;
  if (!take(&c, "]", 1)) return VF_LINE_NO_CYCLE;

  skip_spaces(&c);
  if (!take(&c, "(PC:", 4)) return VF_LINE_NO_PC;
  skip_spaces(&c);
  if (!take_hex(&c, &out->pc) || !take(&c, ")", 1)) return VF_LINE_NO_PC;

  skip_spaces(&c);
  const char *pipe = c.p;
  while (c.p < c.end && is_word_char(*c.p))
    c.p++;
  size_t pipe_len = (size_t)(c.p - pipe);
  skip_spaces(&c);
  if (pipe_len == 0 || !take(&c, ":", 1)) return VF_LINE_NO_PIPE;
  out->pipe_text = (vf_span_t){pipe, (uint32_t)pipe_len};
  out->pipe = pipe_lookup(pipe, pipe_len);

  skip_spaces(&c);
  if (!take(&c, "(Binary:", 8)) return VF_LINE_NO_BINARY;
  skip_spaces(&c);
  if (!take_hex(&c, &out->binary) || !take(&c, ")", 1)) return VF_LINE_NO_BINARY;

  /* The instruction ID sits only here, between the binary and the mnemonic; "FLAG ID:0" or
   * "Id:415" later in the operands are operand text. */
  skip_spaces(&c);
  if (take(&c, "(ID:", 4)) {
    skip_spaces(&c);
    if (!take_dec(&c, &out->id)) return VF_LINE_BAD_ID;
    skip_spaces(&c);
    if (!take(&c, ")", 1)) return VF_LINE_BAD_ID;
    out->has_id = true;
    skip_spaces(&c);
  }

  const char *mn = c.p;
  if (c.p == c.end ||
      !((*c.p >= 'A' && *c.p <= 'Z') || (*c.p >= 'a' && *c.p <= 'z') || *c.p == '_'))
    return VF_LINE_NO_MNEMONIC;
  while (c.p < c.end && *c.p != ' ' && *c.p != '(' && *c.p != ',' && *c.p != '\t')
    c.p++;
  out->mnemonic = (vf_span_t){mn, (uint32_t)(c.p - mn)};
  skip_spaces(&c);
  out->operands = (vf_span_t){c.p, (uint32_t)(c.end - c.p)};

  if (out->pipe == VF_PIPE_PUSHQ && is_vf_mnemonic(out->mnemonic)) {
    out->is_vf = true;
    return parse_vf_fields(out);
  }
  return VF_LINE_OK;
}

const char *vf_line_status_name(vf_line_status_t s) {
  static const char *const names[VF_LINE_KIND_COUNT] = {
      "ok",        "blank",  "no_cycle",    "bad_cycle",    "no_pc",    "no_pipe",
      "no_binary", "bad_id", "no_mnemonic", "bad_vf_field", "too_long",
  };
  return (unsigned)s < VF_LINE_KIND_COUNT ? names[s] : "unknown";
}

const char *vf_pipe_name(vf_pipe_t p) {
  static const char *const names[VF_PIPE_COUNT] = {
      "OTHER", "SCALAR",   "VEC", "VECTOR", "MTE1",   "MTE2",   "MTE3",   "FIXP",   "CUBE",
      "FC",    "FLOWCTRL", "ALL", "RVECEX", "RVECLD", "RVECST", "RVECSU", "RVECLP", "PUSHQ",
  };
  return (unsigned)p < VF_PIPE_COUNT ? names[p] : "OTHER";
}
