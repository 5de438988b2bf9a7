#include "stream_stores.h"

uint64_t stream_copy_nt_threshold(uint64_t llc_bytes) {
  return llc_bytes / 4 * 3;
}

bool stream_copy_uses_nt(stream_copy_stores_t mode, bool nt_stores, uint64_t array_bytes,
                         uint64_t llc_bytes) {
  if (mode != STREAM_COPY_AUTO) return mode == STREAM_COPY_NT;
  if (nt_stores) return true;
  const uint64_t threshold = stream_copy_nt_threshold(llc_bytes);
  return threshold > 0 && array_bytes > threshold;
}
