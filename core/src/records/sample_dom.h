/* Sample lines through simdjson's DOM parser: the fast way, for lines that are clean sample
 * records. Whatever it is not sure jansson would read the same way (another record type, a
 * broken rule or JSON error, an integer jansson refuses, a \u0000 escape) it leaves to jansson,
 * which gives today's messages. */
#ifndef RIGOR_SAMPLE_DOM_H
#define RIGOR_SAMPLE_DOM_H

#include <jansson.h>
#include <stddef.h>

#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes after a line that must be readable (simdjson's padding): the read buffer keeps them. */
#define RIGOR_SAMPLE_DOM_PADDING 64

typedef struct rigor_sample_dom rigor_sample_dom_t;

rigor_sample_dom_t *rigor__sample_dom_new(void);
void rigor__sample_dom_free(rigor_sample_dom_t *d);
/* 1 with *out filled (valid until the next call) when `line` is a sample record that keeps
 * every rule; 0 when the line is for jansson; RIGOR_ENOMEM. */
int rigor__sample_dom_parse(rigor_sample_dom_t *d, const char *line, size_t len,
                            rigor_sample_t *out);
/* The last parsed sample's "point_params" as a new JSON value, or NULL when absent. */
json_t *rigor__sample_dom_point_params(rigor_sample_dom_t *d);

#ifdef __cplusplus
}
#endif

#endif
