/* Measurement-bias control (environment.randomize_env). */
#ifndef RIGOR_ENVPAD_H
#define RIGOR_ENVPAD_H

#include <stddef.h>
#include <stdint.h>

/* A value of 0..RIGOR_ENV_PAD_MAX characters, its length drawn from the project PRNG, identical
 * for the same (seed, run). The runner exports it as RIGOR_ENV_PAD_NAME in the run's
 * environment and records `len`. `cap` must exceed RIGOR_ENV_PAD_MAX (RIGOR_ERANGE otherwise). */
#define RIGOR_ENV_PAD_NAME "RIGOR_ENV_PAD"
#define RIGOR_ENV_PAD_MAX  4095
int rigor_env_pad(uint64_t seed, uint32_t run, char *buf, size_t cap, size_t *len);

#endif
