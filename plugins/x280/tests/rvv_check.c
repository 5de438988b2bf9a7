/* The RVV map loop against the scalar mix, built for riscv64 by scripts/check-rvv.sh and run under
 * an emulator: every word exact at sizes around the vector length, nothing written past the end,
 * and "no V" where the CPU lacks the vector extension. */
#include <stdio.h>
#include <stdlib.h>

#include "x280_mix.h"
#include "x280_vmap.h"

int main(void) {
  if (!x280_vmap_available()) {
    printf("no V\n");
    return 2;
  }
  const size_t sizes[] = {0, 1, 7, 16, 127, 1000, 4097, 65539};
  int bad = 0;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    size_t n = sizes[s];
    uint32_t *in = malloc((n + 1) * sizeof *in), *out = malloc((n + 1) * sizeof *out);
    if (!in || !out) return 1;
    for (size_t i = 0; i < n; i++)
      in[i] = (uint32_t)(i * 2654435761u + 12345u);
    for (size_t i = 0; i <= n; i++)
      out[i] = 0xa5a5a5a5u;
    x280_vmap_range(out, in, n, (x280_next_t){0});
    for (size_t i = 0; i < n; i++)
      if (out[i] != x280_mix(in[i])) {
        printf("n=%zu: word %zu is 0x%08x, expected 0x%08x\n", n, i, out[i], x280_mix(in[i]));
        bad = 1;
        break;
      }
    if (out[n] != 0xa5a5a5a5u) {
      printf("n=%zu: wrote past the end\n", n);
      bad = 1;
    }
    free(in);
    free(out);
  }
  printf("%s: %s\n", x280_vmap_isa(), bad ? "WRONG" : "every size exact");
  return bad;
}
