#include "stream_stores.h"

stream_store_path_t stream_copy_path(stream_copy_stores_t mode, bool nt_stores) {
  if (mode == STREAM_COPY_PLAIN) return STREAM_PATH_PLAIN;
  if (mode == STREAM_COPY_NT || nt_stores) return STREAM_PATH_NT;
  return STREAM_PATH_MEMCPY;
}
