#include "pto_vf_class.h"

#include "pto_vf_swar.h"

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

/* Mnemonic rules first (sync prefixes WAIT_FLAG, SET_FLAG, PIPE_BARRIER, BARRIER, BAR, SYNC,
 * WAIT_EVENT, SET_EVENT; then NOP* and MOVEMASK as other), dispatched on the first letter so that
 * the common case, no rule applies, costs one test. */
static bool mnemonic_class(vf_span_t m, vf_class_t *cls) {
  if (m.len == 0) return false;
  *cls = VF_CLASS_SYNC;
  switch (m.ptr[0] & ~0x20) {
  case 'W':
    return PREFIX(m, "WAIT_FLAG") || PREFIX(m, "WAIT_EVENT");
  case 'S':
    return PREFIX(m, "SET_FLAG") || PREFIX(m, "SYNC") || PREFIX(m, "SET_EVENT");
  case 'P':
    return PREFIX(m, "PIPE_BARRIER");
  case 'B': /* BAR also covers BARRIER */
    return PREFIX(m, "BAR");
  case 'N':
    *cls = VF_CLASS_OTHER;
    return PREFIX(m, "NOP");
  case 'M': /* pipe bookkeeping that moves no data and computes nothing */
    *cls = VF_CLASS_OTHER;
    return PREFIX(m, "MOVEMASK");
  default:
    return false;
  }
}

static const uint8_t PIPE_CLASS[VF_PIPE_COUNT] = {
    [VF_PIPE_OTHER] = VF_CLASS_OTHER,    [VF_PIPE_SCALAR] = VF_CLASS_OTHER,
    [VF_PIPE_VEC] = VF_CLASS_COMPUTE,    [VF_PIPE_VECTOR] = VF_CLASS_COMPUTE,
    [VF_PIPE_MTE1] = VF_CLASS_LOAD,      [VF_PIPE_MTE2] = VF_CLASS_LOAD,
    [VF_PIPE_MTE3] = VF_CLASS_STORE,     [VF_PIPE_FIXP] = VF_CLASS_STORE,
    [VF_PIPE_CUBE] = VF_CLASS_COMPUTE,   [VF_PIPE_FC] = VF_CLASS_OTHER,
    [VF_PIPE_FLOWCTRL] = VF_CLASS_OTHER, [VF_PIPE_ALL] = VF_CLASS_OTHER,
    [VF_PIPE_RVECEX] = VF_CLASS_COMPUTE, [VF_PIPE_RVECLD] = VF_CLASS_LOAD,
    [VF_PIPE_RVECST] = VF_CLASS_STORE,   [VF_PIPE_RVECSU] = VF_CLASS_OTHER,
    [VF_PIPE_RVECLP] = VF_CLASS_OTHER,   [VF_PIPE_PUSHQ] = VF_CLASS_OTHER,
};

#if VF_SWAR_AVAILABLE
/* The same rules on the first sixteen characters, upper-cased a word at a time and compared with
 * every prefix at once: no branch depends on the mnemonic, which changes from line to line. */
static vf_class_t classify_words(vf_class_t by_pipe, const char *m) {
  uint64_t w[2];
  for (int i = 0; i < 2; i++) {
    uint64_t x = vf_swar_load(m + 8 * i);
    uint64_t lower = vf_swar_in_range(x & VF_SWAR_REP(0x7F), 'a', 'z') & ~x;
    w[i] = x & ~(lower >> 2);
  }
#define HEAD(lit, n)                                                                               \
  ((w[0] & (~0ULL >> (64 - 8 * (n)))) == (vf_swar_load(lit) & (~0ULL >> (64 - 8 * (n)))))
#define TAIL(lit, n)                                                                               \
  ((w[1] & (~0ULL >> (64 - 8 * (n)))) == (vf_swar_load(lit) & (~0ULL >> (64 - 8 * (n)))))
  bool sync =
      (HEAD("WAIT_FLA", 8) & TAIL("Gxxxxxxx", 1)) | (HEAD("WAIT_EVE", 8) & TAIL("NTxxxxxx", 2)) |
      HEAD("SET_FLAG", 8) | (HEAD("SET_EVEN", 8) & TAIL("Txxxxxxx", 1)) |
      (HEAD("PIPE_BAR", 8) & TAIL("RIERxxxx", 4)) | HEAD("BARxxxxx", 3) | HEAD("SYNCxxxx", 4);
  bool other = HEAD("NOPxxxxx", 3) | HEAD("MOVEMASK", 8);
#undef HEAD
#undef TAIL
  return sync ? VF_CLASS_SYNC : other ? VF_CLASS_OTHER : by_pipe;
}
#endif

vf_class_t vf_classify(vf_pipe_t pipe, vf_span_t mnemonic) {
  vf_class_t by_pipe =
      (unsigned)pipe < VF_PIPE_COUNT ? (vf_class_t)PIPE_CLASS[pipe] : VF_CLASS_OTHER;
#if VF_SWAR_AVAILABLE
  if (mnemonic.len >= 16) return classify_words(by_pipe, mnemonic.ptr);
#endif
  vf_class_t cls;
  return mnemonic_class(mnemonic, &cls) ? cls : by_pipe;
}

const char *vf_class_name(vf_class_t c) {
  static const char *const names[VF_CLASS_COUNT] = {"load", "compute", "store", "sync", "other"};
  return (unsigned)c < VF_CLASS_COUNT ? names[c] : "other";
}
