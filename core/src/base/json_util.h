/* Small conversions between JSON numbers and doubles that every part writes the same way. */
#ifndef RIGOR_JSON_UTIL_H
#define RIGOR_JSON_UTIL_H

#include <jansson.h>

/* The number's value, NaN for anything else (null, absent, a string). */
double rigor_json_number(const json_t *j);
double rigor_json_number_at(const json_t *obj, const char *key);
/* A real, or null for NaN and infinities (JSON has neither). */
json_t *rigor_json_real_or_null(double v);

#endif
