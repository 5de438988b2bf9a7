#include "pto_vf_line.h"

#include <string.h>

#include "pto_vf_swar.h"

/* Hex digit value + 1 by character, 0 for anything else: one load instead of three range tests. */
static const uint8_t HEX_PLUS_ONE[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9,  ['9'] = 10, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

static inline bool is_digit(char ch) {
  return (unsigned char)(ch - '0') < 10;
}

static inline bool is_word_char(char ch) {
  return (unsigned char)((ch | 0x20) - 'a') < 26 || is_digit(ch) || ch == '_';
}

static inline const char *skip_spaces(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

/* Literal of compile-time length at p; the constant-size memcmp compiles to a few loads. */
#define LIT_AT(p, end, lit)                                                                        \
  ((size_t)((end) - (p)) >= sizeof lit - 1 && !memcmp(p, lit, sizeof lit - 1))
#define SPAN_IS(s, n, lit) ((n) == sizeof lit - 1 && !memcmp(s, lit, sizeof lit - 1))

/* Hex digits (at most 16) after an optional "0x"; NULL when none or too many, else the position
 * after the last digit. */
static inline const char *take_hex(const char *p, const char *end, uint64_t *value) {
  if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
#if VF_SWAR_AVAILABLE
  /* Up to seven digits, the common case, without a loop. */
  if (end - p >= 8) {
    uint64_t w = vf_swar_load(p);
    unsigned n = vf_swar_first(~(vf_swar_digits(w) | vf_swar_hex_letters(w)) & VF_SWAR_HIGH);
    if (n == 0) return NULL;
    if (n < 8) {
      *value = vf_swar_hex_prefix(w, n);
      return p + n;
    }
  }
#endif
  const char *first = p;
  const char *limit = end - p > 17 ? p + 17 : end;
  uint64_t v = 0;
  unsigned d;
  while (p < limit && (d = HEX_PLUS_ONE[(unsigned char)*p]) != 0) {
    v = (v << 4) | (d - 1);
    p++;
  }
  if (p == first || p - first > 16) return NULL;
  *value = v;
  return p;
}

/* Decimal digits; NULL when none or when the value overflows 64 bits. On overflow *stop is the
 * offending digit, so the caller can tell "bad" from "absent". */
static inline const char *take_dec(const char *p, const char *end, uint64_t *value,
                                   const char **stop) {
#if VF_SWAR_AVAILABLE
  if (end - p >= 8) {
    uint64_t w = vf_swar_load(p);
    unsigned n = vf_swar_first(~vf_swar_digits(w) & VF_SWAR_HIGH);
    if (n < 8) {
      *stop = p + n;
      if (n == 0) return NULL;
      *value = vf_swar_dec_prefix(w, n);
      return p + n;
    }
  }
#endif
  const char *first = p;
  uint64_t v = 0;
  /* Nineteen digits always fit; only the twentieth can overflow. */
  const char *safe = end - p > 19 ? p + 19 : end;
  while (p < safe && is_digit(*p)) {
    v = v * 10 + (uint64_t)(*p - '0');
    p++;
  }
  while (p < end && is_digit(*p)) {
    uint64_t d = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) {
      *stop = p;
      return NULL;
    }
    v = v * 10 + d;
    p++;
  }
  *stop = p;
  if (p == first) return NULL;
  *value = v;
  return p;
}

static vf_pipe_t pipe_lookup(const char *s, size_t n) {
  switch (n) {
  case 2:
    return SPAN_IS(s, n, "FC") ? VF_PIPE_FC : VF_PIPE_OTHER;
  case 3:
    if (SPAN_IS(s, n, "VEC")) return VF_PIPE_VEC;
    return SPAN_IS(s, n, "ALL") ? VF_PIPE_ALL : VF_PIPE_OTHER;
  case 4:
    if (SPAN_IS(s, n, "MTE1")) return VF_PIPE_MTE1;
    if (SPAN_IS(s, n, "MTE2")) return VF_PIPE_MTE2;
    if (SPAN_IS(s, n, "MTE3")) return VF_PIPE_MTE3;
    if (SPAN_IS(s, n, "FIXP")) return VF_PIPE_FIXP;
    return SPAN_IS(s, n, "CUBE") ? VF_PIPE_CUBE : VF_PIPE_OTHER;
  case 5:
    return SPAN_IS(s, n, "PUSHQ") ? VF_PIPE_PUSHQ : VF_PIPE_OTHER;
  case 6:
    if (SPAN_IS(s, n, "SCALAR")) return VF_PIPE_SCALAR;
    if (SPAN_IS(s, n, "VECTOR")) return VF_PIPE_VECTOR;
    if (!SPAN_IS(s, 4, "RVEC")) return VF_PIPE_OTHER;
    if (SPAN_IS(s + 4, 2, "EX")) return VF_PIPE_RVECEX;
    if (SPAN_IS(s + 4, 2, "LD")) return VF_PIPE_RVECLD;
    if (SPAN_IS(s + 4, 2, "ST")) return VF_PIPE_RVECST;
    if (SPAN_IS(s + 4, 2, "SU")) return VF_PIPE_RVECSU;
    return SPAN_IS(s + 4, 2, "LP") ? VF_PIPE_RVECLP : VF_PIPE_OTHER;
  case 8:
    return SPAN_IS(s, n, "FLOWCTRL") ? VF_PIPE_FLOWCTRL : VF_PIPE_OTHER;
  default:
    return VF_PIPE_OTHER;
  }
}

static bool is_vf_mnemonic(vf_span_t m) {
  if (m.len < 2 || m.ptr[0] != 'V' || m.ptr[1] != 'F') return false;
  return m.len == 2 || SPAN_IS(m.ptr, m.len, "VFI") || SPAN_IS(m.ptr, m.len, "VF_RU") ||
         SPAN_IS(m.ptr, m.len, "VF_BC") || SPAN_IS(m.ptr, m.len, "VF_PREFETCH") ||
         SPAN_IS(m.ptr, m.len, "VF_SIMT");
}

/* Position just after "key" followed by spaces and ':' or '=', where key is a whole word; NULL
 * when absent. */
static const char *find_key(vf_span_t s, const char *key, size_t klen) {
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
  const char *v = find_key(operands, key, strlen(key));
  if (!v) return false;
  const char *end = operands.ptr + operands.len;
  v = skip_spaces(v, end);
  if (!(end - v >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))) return false;
  return take_hex(v, end, value) != NULL;
}

/* The VF field whose key ends at `k` (a whole word from a word boundary); 0 when none. */
static uint32_t vf_key_ending_at(const char *begin, const char *k) {
#define KEY_ENDS_AT(lit)                                                                           \
  ((size_t)(k - begin) >= sizeof lit - 1 && !memcmp(k - (sizeof lit - 1), lit, sizeof lit - 1) &&  \
   (k - (sizeof lit - 1) == begin || !is_word_char(k[-(ptrdiff_t)sizeof lit])))
  switch (k > begin ? k[-1] : 0) {
  case 'r':
    return KEY_ENDS_AT("addr") ? VF_FIELD_ADDR : 0;
  case 'm':
    return KEY_ENDS_AT("instr_num") ? VF_FIELD_INSTR_NUM : 0;
  case 'e':
    if (KEY_ENDS_AT("vf_execute_time")) return VF_FIELD_EXEC;
    return KEY_ENDS_AT("vf_real_execute_time") ? VF_FIELD_REAL_EXEC : 0;
  default:
    return 0;
  }
#undef KEY_ENDS_AT
}

/* The first ':' or '=' at or after p, eight bytes at a time; end when none. */
static inline const char *next_separator(const char *p, const char *end) {
#if VF_SWAR_AVAILABLE
  for (; end - p >= 8; p += 8) {
    uint64_t w = vf_swar_load(p);
    uint64_t hit = vf_swar_eq(w, ':') | vf_swar_eq(w, '=');
    if (hit) return p + vf_swar_first(hit);
  }
#endif
  while (p < end && *p != ':' && *p != '=')
    p++;
  return p;
}

/* The value of VF field `bit` at v (after the separator and spaces), stored in `out`; returns the
 * position after it, or NULL when it is malformed or runs into a word. */
static inline const char *take_vf_value(uint32_t bit, const char *v, const char *end,
                                        vf_line_t *out) {
  const char *stop;
  switch (bit) {
  case VF_FIELD_ADDR:
    v = take_hex(v, end, &out->vf_addr);
    break;
  case VF_FIELD_INSTR_NUM:
    v = take_hex(v, end, &out->vf_instr_num);
    break;
  case VF_FIELD_EXEC:
    v = take_dec(v, end, &out->vf_execute_time, &stop);
    break;
  default:
    v = take_dec(v, end, &out->vf_real_execute_time, &stop);
    break;
  }
  return v && (v == end || !is_word_char(*v)) ? v : NULL;
}

/* When the text at *p is `lit` (a key as CAModel prints it: the separator before it, the key, ": ")
 * the field's value is taken and *p moves past it. Returns false only for a malformed value. */
static inline bool take_printed_field(const char **p, const char *end, const char *lit, size_t n,
                                      uint32_t bit, vf_line_t *out, uint32_t *seen) {
  if ((size_t)(end - *p) < n || memcmp(*p, lit, n) != 0) return true;
  const char *v = take_vf_value(bit, skip_spaces(*p + n, end), end, out);
  if (!v) return false;
  *seen |= bit;
  *p = v;
  return true;
}

#define PRINTED(lit) lit, sizeof lit - 1

/* Each VF field has its own optional match: the first "key:" or "key=" (spaces allowed before the
 * separator) of each key counts, and a key that is present must carry a valid value. The fields as
 * CAModel prints them are taken in order first; one pass over the remaining separators then finds
 * any other key. (The printed prefix holds no separator of a key not yet taken, so every field
 * still comes from its key's first occurrence.) */
static vf_line_status_t parse_vf_fields(vf_line_t *out) {
  const char *begin = out->operands.ptr;
  const char *end = begin + out->operands.len;
  const char *p = begin;
  uint32_t seen = 0;
  if (!take_printed_field(&p, end, PRINTED("addr: "), VF_FIELD_ADDR, out, &seen) ||
      !take_printed_field(&p, end, PRINTED(",instr_num: "), VF_FIELD_INSTR_NUM, out, &seen) ||
      !take_printed_field(&p, end, PRINTED(", vf_execute_time: "), VF_FIELD_EXEC, out, &seen) ||
      !take_printed_field(&p, end, PRINTED(", vf_real_execute_time: "), VF_FIELD_REAL_EXEC, out,
                          &seen))
    return VF_LINE_BAD_VF_FIELD;
  for (const char *sep = p; (sep = next_separator(sep, end)) != end; sep++) {
    const char *k = sep;
    while (k > begin && k[-1] == ' ')
      k--;
    uint32_t bit = vf_key_ending_at(begin, k);
    if (!bit || (seen & bit)) continue;
    seen |= bit;
    if (!take_vf_value(bit, skip_spaces(sep + 1, end), end, out)) return VF_LINE_BAD_VF_FIELD;
  }
  out->vf_fields = seen;
  return VF_LINE_OK;
}

static inline const char *trim_end(const char *ptr, size_t len) {
  const char *end = ptr + len;
  while (end > ptr && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
    end--;
  return end;
}

vf_line_status_t vf_line_parse_general(const char *ptr, size_t len, vf_line_t *out) {
  const char *p = ptr;
  const char *end = trim_end(ptr, len);
  out->has_id = false;
  out->is_vf = false;
  out->vf_fields = 0;
  p = skip_spaces(p, end);
  if (p == end) return VF_LINE_BLANK;

  if (LIT_AT(p, end, "[info]")) p = skip_spaces(p + 6, end);
  if (p == end || *p != '[') return VF_LINE_NO_CYCLE;
  const char *stop;
  const char *q = take_dec(p + 1, end, &out->cycle, &stop);
  if (!q) return stop > p + 1 ? VF_LINE_BAD_CYCLE : VF_LINE_NO_CYCLE;
  if (q == end || *q != ']') return VF_LINE_NO_CYCLE;

  p = skip_spaces(q + 1, end);
  if (!LIT_AT(p, end, "(PC:")) return VF_LINE_NO_PC;
  p = take_hex(skip_spaces(p + 4, end), end, &out->pc);
  if (!p || p == end || *p != ')') return VF_LINE_NO_PC;

  p = skip_spaces(p + 1, end);
  const char *pipe = p;
  while (p < end && is_word_char(*p))
    p++;
  size_t pipe_len = (size_t)(p - pipe);
  p = skip_spaces(p, end);
  if (pipe_len == 0 || p == end || *p != ':') return VF_LINE_NO_PIPE;
  out->pipe_text = (vf_span_t){pipe, pipe_len};
  out->pipe = pipe_lookup(pipe, pipe_len);

  p = skip_spaces(p + 1, end);
  if (!LIT_AT(p, end, "(Binary:")) return VF_LINE_NO_BINARY;
  p = take_hex(skip_spaces(p + 8, end), end, &out->binary);
  if (!p || p == end || *p != ')') return VF_LINE_NO_BINARY;

  /* The instruction ID sits only here, between the binary and the mnemonic; "FLAG ID:0" or
   * "Id:415" later in the operands are operand text. */
  p = skip_spaces(p + 1, end);
  if (LIT_AT(p, end, "(ID:")) {
    p = take_dec(skip_spaces(p + 4, end), end, &out->id, &stop);
    if (!p) return VF_LINE_BAD_ID;
    p = skip_spaces(p, end);
    if (p == end || *p != ')') return VF_LINE_BAD_ID;
    out->has_id = true;
    p = skip_spaces(p + 1, end);
  }

  const char *mn = p;
  if (p == end || !((unsigned char)((*p | 0x20) - 'a') < 26 || *p == '_'))
    return VF_LINE_NO_MNEMONIC;
  while (p < end && *p != ' ' && *p != '(' && *p != ',' && *p != '\t')
    p++;
  out->mnemonic = (vf_span_t){mn, (size_t)(p - mn)};
  p = skip_spaces(p, end);
  out->operands = (vf_span_t){p, (size_t)(end - p)};

  if (out->pipe == VF_PIPE_PUSHQ && is_vf_mnemonic(out->mnemonic)) {
    out->is_vf = true;
    return parse_vf_fields(out);
  }
  return VF_LINE_OK;
}

#if VF_SWAR_AVAILABLE
/* High bit set in each byte that could end a mnemonic: below '-' (which covers space, tab, '('
 * and ',') or non-ASCII. Every byte before the first flagged one is certainly part of it. */
static inline uint64_t mnemonic_end_candidates(uint64_t w) {
  return (~vf_swar_in_range(w & VF_SWAR_REP(0x7F), '-', 0x7F) | w) & VF_SWAR_HIGH;
}

static inline bool ends_mnemonic(char ch) {
  return ch == ' ' || ch == '(' || ch == ',' || ch == '\t';
}

/* A mnemonic ends at a space, tab, '(' or ','. Sixteen bytes are classified without a loop, so
 * that the usual mnemonic of 2 to 15 characters costs no mispredicted iteration count. */
static inline const char *mnemonic_end(const char *p, const char *end) {
  if (end - p >= 16) {
    uint64_t m0 = mnemonic_end_candidates(vf_swar_load(p));
    uint64_t m1 = mnemonic_end_candidates(vf_swar_load(p + 8));
    unsigned k = m0 ? vf_swar_first(m0) : 8 + vf_swar_first(m1);
    if (k < 16 && ends_mnemonic(p[k])) return p + k;
    p += k < 16 ? k : 16;
  }
  while (p < end && !ends_mnemonic(*p))
    p++;
  return p;
}

/* Pipe names padded with spaces to eight bytes, placed by a multiplicative hash of that word
 * (PIPE_HASH_MULT was chosen so that the 17 names fall in distinct slots): one load and one
 * compare, where a chain of tests would mispredict on every change of pipe. */
#define PIPE_HASH_MULT    0x678a5aa33b6fe507ULL
#define PIPE_HASH_SLOT(w) ((unsigned)(((w)*PIPE_HASH_MULT) >> 59))

static const struct {
  char padded[8];
  uint8_t pipe;
} PIPE_SLOTS[32] = {
    [22] = {"SCALAR  ", VF_PIPE_SCALAR}, [3] = {"VEC     ", VF_PIPE_VEC},
    [1] = {"VECTOR  ", VF_PIPE_VECTOR},  [4] = {"MTE1    ", VF_PIPE_MTE1},
    [24] = {"MTE2    ", VF_PIPE_MTE2},   [13] = {"MTE3    ", VF_PIPE_MTE3},
    [27] = {"FIXP    ", VF_PIPE_FIXP},   [10] = {"CUBE    ", VF_PIPE_CUBE},
    [5] = {"FC      ", VF_PIPE_FC},      [17] = {"FLOWCTRL", VF_PIPE_FLOWCTRL},
    [19] = {"ALL     ", VF_PIPE_ALL},    [25] = {"RVECEX  ", VF_PIPE_RVECEX},
    [21] = {"RVECLD  ", VF_PIPE_RVECLD}, [9] = {"RVECST  ", VF_PIPE_RVECST},
    [23] = {"RVECSU  ", VF_PIPE_RVECSU}, [29] = {"RVECLP  ", VF_PIPE_RVECLP},
    [28] = {"PUSHQ   ", VF_PIPE_PUSHQ},
};

/* The pipe whose padded name is exactly w, VF_PIPE_OTHER when none. */
static inline vf_pipe_t padded_pipe_lookup(uint64_t w) {
  unsigned slot = PIPE_HASH_SLOT(w);
  return vf_swar_load(PIPE_SLOTS[slot].padded) == w ? (vf_pipe_t)PIPE_SLOTS[slot].pipe
                                                    : VF_PIPE_OTHER;
}

#define ID_OPEN_MASK 0xFFFFFFFFFFFFULL /* the six bytes of " (ID: " */

/* The cycle of a fixed-layout line: eight digits at s + 8, then any more up to q. */
static inline uint64_t layout_cycle(const char *s, const char *q) {
  uint64_t cycle = vf_swar_dec8(vf_swar_load(s + 8));
  for (const char *p = s + 16; p < q; p++)
    cycle = cycle * 10 + (uint64_t)(*p - '0');
  return cycle;
}

/* The layout CAModel writes, checked eight bytes at a time:
 *   "[info] [" digits "] (PC: 0x" 8 hex ") " pipe padded to 8 " : (Binary: 0x" 8 hex ")"
 *   [" (ID: " 1-7 digits ")"] spaces mnemonic [spaces operands]
 * Returns -1 for anything else (other widths, unknown pipes, malformed lines), leaving the line
 * to the general parser; it accepts only lines that the general parser reads identically. Every
 * byte up to the mnemonic's first character is checked whatever `need` says. */
__attribute__((always_inline)) static inline int parse_fixed_layout(const char *s, const char *end,
                                                                    unsigned need, vf_line_t *out) {
  if (end - s < 67 || vf_swar_load(s) != vf_swar_load("[info] [")) return -1;
  if (vf_swar_digits(vf_swar_load(s + 8)) != VF_SWAR_HIGH) return -1;
  /* Cycles from 10^8 on print wider; up to nineteen digits always fit. */
  const char *q = s + 16;
  while (is_digit(*q)) {
    if (q - (s + 8) == 19) return -1;
    q++;
  }
  if (end - q < 51 || *q != ']' || vf_swar_load(q + 1) != vf_swar_load(" (PC: 0x")) return -1;
  uint64_t pc_digits = vf_swar_load(q + 9);
  if (q[17] != ')' || q[18] != ' ' || !vf_swar_is_hex8(pc_digits)) return -1;

  const char *pipe = q + 19;
  uint64_t padded = vf_swar_load(pipe);
  vf_pipe_t pipe_id = padded_pipe_lookup(padded);
  if (pipe_id == VF_PIPE_OTHER) return -1;

  const char *t = pipe + 8;
  if (vf_swar_load(t) != vf_swar_load(" : (Bina") ||
      vf_swar_load(t + 6) != vf_swar_load("nary: 0x"))
    return -1;
  uint64_t binary_digits = vf_swar_load(t + 14);
  if (t[22] != ')' || !vf_swar_is_hex8(binary_digits)) return -1;

  const char *r = t + 23;
  uint64_t id_digits = 0;
  unsigned id_len = 0;
  if (end - r >= 14 &&
      (vf_swar_load(r) & ID_OPEN_MASK) == (vf_swar_load(" (ID: 00") & ID_OPEN_MASK)) {
    id_digits = vf_swar_load(r + 6);
    id_len = vf_swar_first(~vf_swar_digits(id_digits) & VF_SWAR_HIGH);
    if (id_len == 0 || id_len == 8 || r[6 + id_len] != ')') return -1;
    r += 7 + id_len;
  }

  /* A letter cannot be trailing white space, so the checks so far hold for the trimmed line. */
  const char *mn = skip_spaces(r, end);
  if (mn == end || !((unsigned char)((*mn | 0x20) - 'a') < 26 || *mn == '_')) return -1;

  out->pipe = pipe_id;
  out->has_id = id_len > 0;
  out->is_vf = false;
  out->vf_fields = 0;
  if (need & VF_NEED_VALUES) {
    out->cycle = layout_cycle(s, q);
    out->pc = vf_swar_hex_value(pc_digits);
    out->binary = vf_swar_hex_value(binary_digits);
  }
  if (pipe_id != VF_PIPE_PUSHQ && !(need & VF_NEED_MNEMONIC)) {
    out->mnemonic = (vf_span_t){mn, (size_t)(end - mn)};
    return VF_LINE_OK;
  }

  end = trim_end(mn, (size_t)(end - mn));
  const char *mn_end = mnemonic_end(mn, end);
  const char *ops = skip_spaces(mn_end, end);
  out->pipe_text = (vf_span_t){pipe, vf_swar_first(vf_swar_eq(padded, ' '))};
  out->mnemonic = (vf_span_t){mn, (size_t)(mn_end - mn)};
  out->operands = (vf_span_t){ops, (size_t)(end - ops)};
  out->is_vf = pipe_id == VF_PIPE_PUSHQ && is_vf_mnemonic(out->mnemonic);
  if (id_len > 0 && (out->is_vf || (need & VF_NEED_VALUES)))
    out->id = vf_swar_dec_prefix(id_digits, id_len);
  if (!out->is_vf) return VF_LINE_OK;
  out->cycle = layout_cycle(s, q);
  return parse_vf_fields(out);
}
#endif

vf_line_status_t vf_line_parse(const char *ptr, size_t len, vf_line_t *out) {
  return vf_line_parse_only(ptr, len, VF_NEED_VALUES | VF_NEED_MNEMONIC, out);
}

vf_line_status_t vf_line_parse_only(const char *ptr, size_t len, unsigned need, vf_line_t *out) {
#if VF_SWAR_AVAILABLE
  int st = parse_fixed_layout(ptr, ptr + len, need, out);
  if (st >= 0) return (vf_line_status_t)st;
#endif
  return vf_line_parse_general(ptr, len, out);
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
