/* Units in experiment files: sizes (binary, as nccl-tests), durations, percentages. */
#ifndef RIGOR_UNITS_H
#define RIGOR_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "64MiB", "64M", "1G", "4KiB", "512" (bytes), "1.5KiB" when exact. Rejects overflow. */
int rigor_parse_size(const char *text, uint64_t *out, char *err, size_t errlen);
/* "30s", "500ms", "5m", "1h", "250us", "100ns", or a plain number of seconds. */
int rigor_parse_duration(const char *text, double *out, char *err, size_t errlen);
/* "5%" -> 0.05, or a plain fraction "0.05"; a plain number above 1 ("5") is refused with a hint,
 * since it reads as 5% to some and as 500% to others. */
int rigor_parse_percent(const char *text, double *out, char *err, size_t errlen);
/* A rate in `unit` per second ("B/s", "FLOP/s"): "300GB/s", "1.5 TFLOP/s", "12GiB/s". K, M, G,
 * T, P are decimal (as reports print rates), Ki, Mi, Gi, Ti, Pi binary. */
int rigor_parse_rate(const char *text, const char *unit, double *out, char *err, size_t errlen);
int rigor_parse_int(const char *text, int64_t *out, char *err, size_t errlen);
int rigor_parse_uint(const char *text, uint64_t *out, char *err, size_t errlen);
int rigor_parse_double(const char *text, double *out, char *err, size_t errlen);
int rigor_parse_bool(const char *text, int *out, char *err, size_t errlen);
/* "1MiB" for exact binary multiples, otherwise "1000000" (bytes). Caller frees. */
char *rigor_format_size(uint64_t bytes);
/* Seconds as a clock shows them, rounded: "0:07", "12:30", "1:02:03". */
void rigor_format_clock(char *buf, size_t cap, double s);

#endif
