/* Runs the stream plugin through its ABI the way STREAM runs its main loop: every cycle runs each
 * kernel once, timed alone, then validated (untimed). Prints STREAM's figure per kernel: best rate
 * in MB/s (1 MB = 1e6 bytes) = 1e-6 * bytes / min time over all cycles but the first.
 *
 *   stream_bench PLUGIN.so ELEMENTS THREADS CYCLES [nt]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_host.h"

#define N_KERNELS 4
static const char *const labels[N_KERNELS] = {"Copy", "Scale", "Add", "Triad"};

static void set(const rigor_plugin_t *d, void *params, const char *name, const char *text) {
  for (uint32_t i = 0; i < d->n_params; i++) {
    const rigor_param_t *p = &d->params[i];
    if (strcmp(p->name, name) != 0) continue;
    char *field = (char *)params + p->offset;
    if (p->type == RIGOR_PARAM_BOOL)
      *(bool *)field = strcmp(text, "true") == 0;
    else if (p->type == RIGOR_PARAM_INT)
      *(int64_t *)field = strtoll(text, NULL, 10);
    else if (p->type == RIGOR_PARAM_UINT)
      *(uint64_t *)field = strtoull(text, NULL, 10);
    else if (p->type == RIGOR_PARAM_ENUM)
      for (int32_t k = 0; p->choices[k]; k++)
        if (strcmp(p->choices[k], text) == 0) *(int32_t *)field = k;
    return;
  }
  fprintf(stderr, "no param %s\n", name);
  exit(2);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s PLUGIN.so ELEMENTS THREADS CYCLES [nt]\n", argv[0]);
    return 2;
  }
  const unsigned cycles = (unsigned)strtoul(argv[4], NULL, 10);
  const bool nt = argc > 5 && strcmp(argv[5], "nt") == 0;
  if (cycles < 2) {
    fprintf(stderr, "CYCLES must be at least 2: the first is excluded\n");
    return 2;
  }
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(argv[1], "stream", &handle);
  test_host_t th;
  test_host_init(&th);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;

  void *points[N_KERNELS];
  const char *kernels[N_KERNELS] = {"copy", "scale", "add", "triad"};
  for (int k = 0; k < N_KERNELS; k++) {
    points[k] = calloc(1, d->params_size);
    for (uint32_t i = 0; i < d->n_params; i++)
      if (d->params[i].def && d->params[i].type != RIGOR_PARAM_STRING)
        set(d, points[k], d->params[i].name, d->params[i].def);
    set(d, points[k], "kernels", kernels[k]);
    set(d, points[k], "elements", argv[2]);
    set(d, points[k], "threads", argv[3]);
    set(d, points[k], "nt_stores", nt ? "true" : "false");
  }
  const rigor_points_t sweep = {.count = N_KERNELS, .points = (const void *const *)points};
  rigor_work_t work;
  void *state;
  if (d->init(ctx, &th.host, points[0], &sweep, &state, &work) != 0) {
    fprintf(stderr, "init: %s\n", th.first_error);
    return 1;
  }
  double best[N_KERNELS];
  uint64_t bytes[N_KERNELS];
  int status = 0;
  for (unsigned cycle = 0; cycle < cycles; cycle++)
    for (int k = 0; k < N_KERNELS; k++) {
      memset(&work, 0, sizeof work);
      d->prime(ctx, state, points[k]);
      const uint64_t t0 = th.host.now_ns(ctx);
      d->run(ctx, state, points[k], 1);
      const double t = 1e-9 * (double)(th.host.now_ns(ctx) - t0);
      bytes[k] = work.bytes;
      if (cycle == 1 || (cycle > 1 && t < best[k])) best[k] = t;
      rigor_check_t check;
      if (d->validate(ctx, state, points[k], &check) != 0) {
        fprintf(stderr, "%s: validation failed: %s\n", labels[k], check.detail);
        status = 3;
      }
    }
  d->fini(ctx, state);
  printf("Function    Best Rate MB/s  Min time\n");
  for (int k = 0; k < N_KERNELS; k++)
    printf("%s:%*s%12.1f  %11.6f\n", labels[k], (int)(11 - strlen(labels[k])), "",
           1e-6 * (double)bytes[k] / best[k], best[k]);
  printf("%s\n", status ? "Failed validation" : "Solution Validates");
  for (int k = 0; k < N_KERNELS; k++)
    free(points[k]);
  return status;
}
