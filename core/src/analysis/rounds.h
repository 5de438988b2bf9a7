#ifndef RIGOR_ROUNDS_H
#define RIGOR_ROUNDS_H

#include <stddef.h>

#include "document.h"

/* Round log (pto_vf style): results files in order, each a round; every row (experiment,
 * variant, point) is compared with its previous valid round and the best so far. metric is a
 * plugin metric name, or NULL for the median time. Speedup = baseline / candidate when lower is
 * better (candidate / baseline when the plugin declares higher better). Invalid rounds are
 * skipped with their reason. *out is the document for any writer (also when no file could be
 * read). Returns 0, or RIGOR_EINVAL when no file could be read. */
int rigor_rounds_doc(const char *const *paths, size_t n, const char *metric, rigor_doc_t **out);

#endif
