/* The map's explicit vector loop: RVV intrinsics on riscv64 (x280_vmap_rvv.c), GCC vector
 * extensions elsewhere (x280_vmap_gcc.c). Exactly one of the two is compiled. */
#ifndef X280_VMAP_H
#define X280_VMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "x280_kernels.h"

/* `next` as in x280_kernels.h; the RVV loop ignores it (its vector length is the hardware's). */
void x280_vmap_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                     x280_next_t next);
/* Whether this machine can run the vector loop (riscv64 asks the kernel for V). */
bool x280_vmap_available(void);
/* The instruction set the loop was written for, for the run's identity. */
const char *x280_vmap_isa(void);

#endif
