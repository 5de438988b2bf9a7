/* Instruction classes for per-class counts and aggregates; the rules are in the README. */
#ifndef PTO_VF_CLASS_H
#define PTO_VF_CLASS_H

#include "pto_vf_line.h"

typedef enum {
  VF_CLASS_LOAD = 0,
  VF_CLASS_COMPUTE,
  VF_CLASS_STORE,
  VF_CLASS_SYNC,
  VF_CLASS_OTHER,
  VF_CLASS_COUNT
} vf_class_t;

vf_class_t vf_classify(vf_pipe_t pipe, vf_span_t mnemonic);
const char *vf_class_name(vf_class_t c);

#endif
