#include "stream_contract.h"

/* The traffic STREAM and BabelStream count: every array read or written once per element. */
const stream_kernel_info_t stream_kernel_info[STREAM_N_KERNELS] = {
    [STREAM_COPY] = {"copy", 1, 1, 0}, [STREAM_SCALE] = {"scale", 1, 1, 1},
    [STREAM_ADD] = {"add", 2, 1, 1},   [STREAM_TRIAD] = {"triad", 2, 1, 2},
    [STREAM_DOT] = {"dot", 2, 0, 2},   [STREAM_NSTREAM] = {"nstream", 3, 1, 3},
};

size_t stream_dtype_size(stream_dtype_t dtype) {
  return dtype == STREAM_FLOAT ? sizeof(float) : sizeof(double);
}

void stream_work_fill(rigor_work_t *work, stream_kernel_t kernel, size_t executed,
                      stream_dtype_t dtype) {
  const stream_kernel_info_t *k = &stream_kernel_info[kernel];
  work->bytes = (uint64_t)(k->arrays_read + k->arrays_written) * stream_dtype_size(dtype) *
                (uint64_t)executed;
  work->flops = (double)k->flops_per_element * (double)executed;
  work->bus_factor = 1.0;
}
