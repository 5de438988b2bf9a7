#ifndef RIGOR_ROUNDS_H
#define RIGOR_ROUNDS_H

#include <stddef.h>

#include "document.h"

/* Round log (pto_vf style): results files in order, each a round; or, for one file whose matrix
 * has an axis with several levels (`axis`, or the first such axis when NULL), the levels of that
 * axis in the matrix's order, the first the baseline. Every row (experiment, variant or cell,
 * point) is compared with the baseline, its previous valid round and the best so far. metric is
 * a plugin metric name, or NULL for the row's figure (the plugin's primary metric, else the median
 * time). Speedup = baseline / candidate when lower is better (candidate / baseline when the
 * plugin declares higher better). Invalid rounds are skipped with their reason. *out is the
 * document for any writer (also when no file could be read). Returns 0; RIGOR_EINVAL when no
 * file could be read (err: the first file's reason); RIGOR_ENOENT when `axis` names no axis of
 * several levels, or no row or plugin of the files knows `metric` (err says which, with the
 * closest name). */
int rigor_rounds_doc(const char *const *paths, size_t n, const char *metric, const char *axis,
                     rigor_doc_t **out, char *err, size_t errlen);

#endif
