/* The history of the store as JSON (history_json.c): the document's data, and what
 * `rigor history --format json` prints. */
#ifndef RIGOR_HISTORY_JSON_H
#define RIGOR_HISTORY_JSON_H

#include <jansson.h>

#include "history.h"

json_t *rigor_history_json(const rigor_history_t *h);

#endif
