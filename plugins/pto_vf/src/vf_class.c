#include "vf_class.h"

static bool starts_with_nocase(vf_span_t s, const char *prefix, size_t n) {
  if (s.len < n) return false;
  for (size_t i = 0; i < n; i++) {
    char ch = s.ptr[i];
    if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
    if (ch != prefix[i]) return false;
  }
  return true;
}

#define PREFIX(s, lit) starts_with_nocase(s, lit, sizeof lit - 1)

/* Sync prefixes: WAIT_FLAG, SET_FLAG, PIPE_BARRIER, BARRIER, BAR, SYNC, WAIT_EVENT, SET_EVENT.
 * Dispatching on the first letter keeps the common case (no prefix applies) to one test. */
static bool is_sync_mnemonic(vf_span_t m) {
  if (m.len == 0) return false;
  switch (m.ptr[0] & ~0x20) {
  case 'W':
    return PREFIX(m, "WAIT_FLAG") || PREFIX(m, "WAIT_EVENT");
  case 'S':
    return PREFIX(m, "SET_FLAG") || PREFIX(m, "SYNC") || PREFIX(m, "SET_EVENT");
  case 'P':
    return PREFIX(m, "PIPE_BARRIER");
  case 'B': /* BAR also covers BARRIER */
    return PREFIX(m, "BAR");
  default:
    return false;
  }
}

/* Pipe bookkeeping that moves no data and computes nothing. */
static bool is_housekeeping(vf_span_t m) {
  return PREFIX(m, "NOP") || PREFIX(m, "MOVEMASK");
}

vf_class_t vf_classify(vf_pipe_t pipe, vf_span_t mnemonic) {
  if (is_sync_mnemonic(mnemonic)) return VF_CLASS_SYNC;
  if (is_housekeeping(mnemonic)) return VF_CLASS_OTHER;
  switch (pipe) {
  case VF_PIPE_MTE1:
  case VF_PIPE_MTE2:
  case VF_PIPE_RVECLD:
    return VF_CLASS_LOAD;
  case VF_PIPE_MTE3:
  case VF_PIPE_FIXP:
  case VF_PIPE_RVECST:
    return VF_CLASS_STORE;
  case VF_PIPE_VEC:
  case VF_PIPE_VECTOR:
  case VF_PIPE_CUBE:
  case VF_PIPE_RVECEX:
    return VF_CLASS_COMPUTE;
  default:
    return VF_CLASS_OTHER;
  }
}

const char *vf_class_name(vf_class_t c) {
  static const char *const names[VF_CLASS_COUNT] = {"load", "compute", "store", "sync", "other"};
  return (unsigned)c < VF_CLASS_COUNT ? names[c] : "other";
}
