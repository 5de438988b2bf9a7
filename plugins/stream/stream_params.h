/* The stream plugin's params struct, filled by the core from the table in stream_plugin.c. */
#ifndef STREAM_PARAMS_H
#define STREAM_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct stream_params {
  int32_t kernel;    /* `kernels`: stream_kernel_t; the sweep axis, one kernel per point */
  uint64_t elements; /* per array; 0 for STREAM's rule */
  int32_t dtype;     /* stream_dtype_t */
  int64_t threads;   /* 0: one per bound CPU, else the OpenMP default */
  bool nt_stores;
  uint64_t offset;     /* elements; array k starts k * offset elements past an aligned address */
  int32_t copy_stores; /* stream_copy_stores_t */
  int32_t proc_bind;   /* stream_bind_t */
  bool huge_pages;     /* ask for transparent huge pages for the arrays, else base pages only */
#ifdef STREAM_FAULT_INJECTION
  int32_t fault;             /* stream_fault_kind_t */
  const char *fault_kernels; /* comma-separated kernels the fault applies to */
#endif
} stream_params_t;

#endif
