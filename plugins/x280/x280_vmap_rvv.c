#include "x280_vmap.h"

#include <riscv_vector.h>
#include <sys/auxv.h>

#include "x280_mix.h"

/* Compiled with the V extension enabled for this file alone (see CMakeLists.txt): the rest of the
 * plugin stays rv64gc and runs on cores without V. */
void x280_vmap_range(uint32_t *restrict out, const uint32_t *restrict in, size_t n,
                     x280_next_t next) {
  (void)next;
  while (n > 0) {
    size_t vl = __riscv_vsetvl_e32m8(n);
    vuint32m8_t x = __riscv_vle32_v_u32m8(in, vl);
    x = __riscv_vxor_vv_u32m8(x, __riscv_vsrl_vx_u32m8(x, X280_MIX_SHIFT, vl), vl);
    x = __riscv_vmul_vx_u32m8(x, X280_MIX_MUL, vl);
    x = __riscv_vadd_vx_u32m8(x, 1u, vl);
    __riscv_vse32_v_u32m8(out, x, vl);
    in += vl;
    out += vl;
    n -= vl;
  }
}

bool x280_vmap_available(void) {
  /* The kernel reports single-letter extensions as bits of AT_HWCAP. */
  return (getauxval(AT_HWCAP) & (1ul << ('V' - 'A'))) != 0;
}

const char *x280_vmap_isa(void) {
  return "rvv";
}
