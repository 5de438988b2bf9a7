/* Clocks: the monotonic one every measurement uses, and wall-clock timestamps for records. */
#ifndef RIGOR_CLOCK_H
#define RIGOR_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t rigor_now_ns(void);
/* The current UTC time as "2026-12-01T10:21:18.123Z". */
void rigor_time_iso(char out[32]);

#endif
