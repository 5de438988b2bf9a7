#include "vf_class.h"

#include <string.h>

static bool starts_with_nocase(vf_span_t s, const char *prefix) {
  size_t n = strlen(prefix);
  if (s.len < n) return false;
  for (size_t i = 0; i < n; i++) {
    char ch = s.ptr[i];
    if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
    if (ch != prefix[i]) return false;
  }
  return true;
}

static bool is_sync_mnemonic(vf_span_t m) {
  static const char *const prefixes[] = {"WAIT_FLAG", "SET_FLAG", "PIPE_BARRIER", "BARRIER",
                                         "BAR",       "SYNC",     "WAIT_EVENT",   "SET_EVENT"};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
    if (starts_with_nocase(m, prefixes[i])) return true;
  return false;
}

/* Pipe bookkeeping that moves no data and computes nothing. */
static bool is_housekeeping(vf_span_t m) {
  return starts_with_nocase(m, "NOP") || starts_with_nocase(m, "MOVEMASK");
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
