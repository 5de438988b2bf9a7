#include "nccl_version.h"

#include <stdio.h>

void nccl_version_format(int code, char *out, size_t cap) {
  int major_unit = code >= 20900 ? 10000 : 1000;
  int major = code / major_unit;
  int minor = (code % major_unit) / 100;
  int patch = code % 100;
  snprintf(out, cap, "%d.%d.%d", major, minor, patch);
}
