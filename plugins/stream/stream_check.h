/* Every element of an array against the value the replay expects: non-finite values first, then
 * relative error (absolute where the expected value is 0). */
#ifndef STREAM_CHECK_H
#define STREAM_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "stream_contract.h"

typedef struct stream_array_check {
  uint64_t wrong;     /* elements off by more than the tolerance, non-finite ones included */
  uint64_t nonfinite; /* NaN or infinite elements */
  size_t first_bad;   /* lowest wrong index; meaningless when wrong == 0 */
  double first_value; /* the value found there */
  double max_abs_err; /* over the finite elements */
  double max_rel_err;
} stream_array_check_t;

/* Relative tolerance per element type: STREAM's epsilons. */
double stream_check_tolerance(stream_dtype_t dtype);

void stream_check_array(const void *array, stream_dtype_t dtype, size_t n, double expected,
                        double tolerance, int threads, stream_array_check_t *out);

#endif
