/* The empty plugin: run() returns at once. rigor's measured loop over it costs one call through
 * a pointer into a loaded module per iteration and nothing else, the floor under any plugin. */
#include <stddef.h>
#include <stdint.h>

#include "rigor/plugin.h"

static int empty_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                      const rigor_points_t *points, void **state, rigor_work_t *work) {
  (void)ctx, (void)host, (void)params, (void)points, (void)work;
  *state = NULL;
  return 0;
}

static int empty_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx, (void)state, (void)point;
  return 0;
}

static int empty_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx, (void)state, (void)point, (void)n;
  return 0;
}

static void empty_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx, (void)state;
}

static const rigor_plugin_t empty_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "empty",
    .version = "1.0",
    .summary = "returns from run at once: the cost of the call alone",
    .init = empty_init,
    .prime = empty_prime,
    .run = empty_run,
    .fini = empty_fini,
};

RIGOR_EXPORT const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &empty_plugin : NULL;
}
