/* NCCL version codes as text. */
#ifndef RIGOR_NCCL_VERSION_H
#define RIGOR_NCCL_VERSION_H

#include <stddef.h>

/* "2.28.9" from 22809 (codes since 2.9 are major*10000 + minor*100 + patch; older ones
 * major*1000 + minor*100 + patch). */
void nccl_version_format(int code, char *out, size_t cap);

#endif
