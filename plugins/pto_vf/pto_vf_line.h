/* One CAModel dump line -> fields. Pure function of its (ptr, len) input: no global state, no
 * allocation, never reads past len. Suitable as a fuzzing entry point. */
#ifndef PTO_VF_LINE_H
#define PTO_VF_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  VF_LINE_OK = 0,
  VF_LINE_BLANK,        /* empty or whitespace only: skipped, not malformed */
  VF_LINE_NO_CYCLE,     /* no "[digits]" cycle */
  VF_LINE_BAD_CYCLE,    /* cycle too long for 64 bits */
  VF_LINE_NO_PC,        /* no "(PC: 0x...)" */
  VF_LINE_NO_PIPE,      /* no "PIPE :" token */
  VF_LINE_NO_BINARY,    /* no "(Binary: 0x...)" */
  VF_LINE_BAD_ID,       /* "(ID:" present but not "(ID: digits)" */
  VF_LINE_NO_MNEMONIC,  /* nothing that looks like a mnemonic */
  VF_LINE_BAD_VF_FIELD, /* a VF field key with an unparsable value */
  VF_LINE_TOO_LONG,     /* set by the reader for lines over its limit */
  VF_LINE_KIND_COUNT
} vf_line_status_t;

typedef enum {
  VF_PIPE_OTHER = 0,
  VF_PIPE_SCALAR,
  VF_PIPE_VEC,
  VF_PIPE_VECTOR,
  VF_PIPE_MTE1,
  VF_PIPE_MTE2,
  VF_PIPE_MTE3,
  VF_PIPE_FIXP,
  VF_PIPE_CUBE,
  VF_PIPE_FC,
  VF_PIPE_FLOWCTRL,
  VF_PIPE_ALL,
  VF_PIPE_RVECEX,
  VF_PIPE_RVECLD,
  VF_PIPE_RVECST,
  VF_PIPE_RVECSU,
  VF_PIPE_RVECLP,
  VF_PIPE_PUSHQ,
  VF_PIPE_COUNT
} vf_pipe_t;

enum {
  VF_FIELD_ADDR = 1u << 0,
  VF_FIELD_INSTR_NUM = 1u << 1,
  VF_FIELD_EXEC = 1u << 2,
  VF_FIELD_REAL_EXEC = 1u << 3,
};

/* A full-width length, so that a span is stored and reloaded as two whole words (a narrower length
 * leaves padding that defeats store-to-load forwarding when a span is passed by value). */
typedef struct vf_span {
  const char *ptr;
  size_t len;
} vf_span_t;

typedef struct vf_line {
  uint64_t cycle;
  uint64_t pc;
  uint64_t binary;
  uint64_t id;
  bool has_id;
  bool is_vf; /* PUSHQ and a mnemonic of the VF family */
  vf_pipe_t pipe;
  vf_span_t pipe_text;
  vf_span_t mnemonic;
  vf_span_t operands;
  /* VF records only; each present when its bit is set in vf_fields. */
  uint32_t vf_fields;
  uint64_t vf_addr;
  uint64_t vf_instr_num;
  uint64_t vf_execute_time;
  uint64_t vf_real_execute_time;
} vf_line_t;

/* Parses one line (without its newline; a trailing '\r' is ignored). Returns a vf_line_status_t;
 * `out` is fully valid only for VF_LINE_OK. */
vf_line_status_t vf_line_parse(const char *ptr, size_t len, vf_line_t *out);
/* What vf_line_parse_only computes besides the status, pipe, has_id and is_vf of every line; VF
 * records get every field whatever is asked. */
enum {
  VF_NEED_VALUES = 1u << 0,   /* cycle, pc, binary and id */
  VF_NEED_MNEMONIC = 1u << 1, /* pipe_text, operands, and the mnemonic's exact end */
};
/* vf_line_parse computing only what `need` asks for (the rest of `out` is unspecified): the VF
 * scan needs the values of VF records only, and of other mnemonics only a prefix, for
 * vf_classify. Without VF_NEED_MNEMONIC, `mnemonic` may run from the mnemonic to the end of the
 * line; vf_classify's rules are prefixes of letters and '_', which no mnemonic ends with, so its
 * answer is the same. */
vf_line_status_t vf_line_parse_only(const char *ptr, size_t len, unsigned need, vf_line_t *out);
/* The same parse without the fast path for the fixed layout CAModel writes; vf_line_parse falls
 * back to it and must always agree with it (the tests compare the two). */
vf_line_status_t vf_line_parse_general(const char *ptr, size_t len, vf_line_t *out);

const char *vf_line_status_name(vf_line_status_t s);
const char *vf_pipe_name(vf_pipe_t p);

/* Finds `key` (e.g. "addr") as a whole word followed by optional spaces and ':' or '=', then a
 * "0x" hex number; returns true and the value when found. Used for buffer mapping. */
bool vf_operand_hex(vf_span_t operands, const char *key, uint64_t *value);

#endif
