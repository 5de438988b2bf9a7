#include "stream_check.h"

#include <math.h>

double stream_check_tolerance(stream_dtype_t dtype) {
  return dtype == STREAM_FLOAT ? 1.0e-6 : 1.0e-13;
}

static double element(const void *array, stream_dtype_t dtype, size_t j) {
  return dtype == STREAM_FLOAT ? (double)((const float *)array)[j] : ((const double *)array)[j];
}

void stream_check_array(const void *array, stream_dtype_t dtype, size_t n, double expected,
                        double tolerance, int threads, stream_array_check_t *out) {
  uint64_t wrong = 0, nonfinite = 0;
  size_t first_bad = n;
  double max_abs = 0.0, max_rel = 0.0;
  const double scale = expected != 0.0 ? fabs(expected) : 1.0;
#pragma omp parallel for schedule(static) num_threads(threads)                                    \
    reduction(+ : wrong, nonfinite) reduction(min : first_bad) reduction(max : max_abs, max_rel)
  for (size_t j = 0; j < n; j++) {
    const double x = element(array, dtype, j);
    if (!isfinite(x)) {
      nonfinite++;
      wrong++;
      first_bad = j < first_bad ? j : first_bad;
      continue;
    }
    const double abs_err = fabs(x - expected);
    const double rel_err = abs_err / scale;
    max_abs = abs_err > max_abs ? abs_err : max_abs;
    max_rel = rel_err > max_rel ? rel_err : max_rel;
    if (rel_err > tolerance) {
      wrong++;
      first_bad = j < first_bad ? j : first_bad;
    }
  }
  *out = (stream_array_check_t){
      .wrong = wrong,
      .nonfinite = nonfinite,
      .first_bad = first_bad,
      .first_value = wrong ? element(array, dtype, first_bad) : expected,
      .max_abs_err = max_abs,
      .max_rel_err = max_rel,
  };
}
