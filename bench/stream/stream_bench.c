/* Runs the stream plugin through its ABI the way STREAM runs its main loop: every cycle runs each
 * kernel once, timed alone, then validated (untimed). Prints STREAM's figure per kernel: best rate
 * in MB/s (1 MB = 1e6 bytes) = 1e-6 * bytes / min time over all cycles but the first, and the
 * store path each kernel took (the plugin's nt_stores metric: plain, nt or memcpy) and how much of
 * the arrays lies in huge pages.
 *
 *   stream_bench PLUGIN.so ELEMENTS THREADS CYCLES [nt] [all] [PARAM=VALUE...]
 *
 * `nt` sets nt_stores; `all` adds BabelStream's dot and nstream to STREAM's four kernels;
 * PARAM=VALUE sets any other param (e.g. proc_bind=none) for every kernel.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_host.h"

#define MAX_KERNELS 6
static const char *const labels[MAX_KERNELS] = {"Copy", "Scale", "Add", "Triad", "Dot", "Nstream"};
static const char *const kernels[MAX_KERNELS] = {"copy", "scale", "add", "triad", "dot", "nstream"};

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

/* The pages the arrays got, from the plugin's identity: "N of M MiB in huge pages (...)". */
static void describe_pages(const rigor_plugin_t *d, rigor_ctx_t *ctx, void *state, char *out,
                           size_t cap) {
  if (!d->identity) return;
  rigor_kv_t kv[48];
  const int n = d->identity(ctx, state, kv, 48);
  const char *asked = NULL, *mode = NULL, *granted = NULL, *array = NULL;
  for (int i = 0; i < n && i < 48; i++) {
    if (strcmp(kv[i].key, "stream.huge_pages") == 0) asked = kv[i].value;
    if (strcmp(kv[i].key, "stream.thp") == 0) mode = kv[i].value;
    if (strcmp(kv[i].key, "stream.huge_page_bytes") == 0) granted = kv[i].value;
    if (strcmp(kv[i].key, "stream.array_bytes") == 0) array = kv[i].value;
  }
  if (!asked || !granted || !array) return;
  snprintf(out, cap, "%.0f of %.0f MiB in huge pages (huge_pages=%s, THP mode %s)",
           strtod(granted, NULL) / (1 << 20), 3 * strtod(array, NULL) / (1 << 20), asked,
           mode ? mode : "unknown");
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s PLUGIN.so ELEMENTS THREADS CYCLES [nt] [all] [PARAM=VALUE...]\n",
            argv[0]);
    return 2;
  }
  const unsigned cycles = (unsigned)strtoul(argv[4], NULL, 10);
  bool nt = false;
  int n_kernels = 4;
  for (int i = 5; i < argc; i++) {
    if (strcmp(argv[i], "nt") == 0)
      nt = true;
    else if (strcmp(argv[i], "all") == 0)
      n_kernels = MAX_KERNELS;
    else if (!strchr(argv[i], '=')) {
      fprintf(stderr, "unknown option %s: expected nt, all or PARAM=VALUE\n", argv[i]);
      return 2;
    }
  }
  if (cycles < 2) {
    fprintf(stderr, "CYCLES must be at least 2: the first is excluded\n");
    return 2;
  }
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(argv[1], "stream", &handle);
  test_host_t th;
  test_host_init(&th);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;

  void *points[MAX_KERNELS];
  for (int k = 0; k < n_kernels; k++) {
    points[k] = calloc(1, d->params_size);
    for (uint32_t i = 0; i < d->n_params; i++)
      if (d->params[i].def && d->params[i].type != RIGOR_PARAM_STRING)
        set(d, points[k], d->params[i].name, d->params[i].def);
    set(d, points[k], "kernels", kernels[k]);
    set(d, points[k], "elements", argv[2]);
    set(d, points[k], "threads", argv[3]);
    set(d, points[k], "nt_stores", nt ? "true" : "false");
    for (int i = 5; i < argc; i++) {
      char name[64];
      const char *eq = strchr(argv[i], '=');
      if (!eq || (size_t)(eq - argv[i]) >= sizeof name) continue;
      snprintf(name, sizeof name, "%.*s", (int)(eq - argv[i]), argv[i]);
      set(d, points[k], name, eq + 1);
    }
  }
  const rigor_points_t sweep = {.count = (uint32_t)n_kernels,
                                .points = (const void *const *)points};
  rigor_work_t work;
  void *state;
  if (d->init(ctx, &th.host, points[0], &sweep, &state, &work) != 0) {
    fprintf(stderr, "init: %s\n", th.first_error);
    return 1;
  }
  double best[MAX_KERNELS], nt_stores[MAX_KERNELS];
  uint64_t bytes[MAX_KERNELS];
  int status = 0;
  for (unsigned cycle = 0; cycle < cycles; cycle++)
    for (int k = 0; k < n_kernels; k++) {
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
      nt_stores[k] = -1;
      if (d->metrics_read && d->n_metrics > 0 && strcmp(d->metrics[0].name, "nt_stores") == 0) {
        double values[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
        if (d->n_metrics <= 8 && d->metrics_read(ctx, state, points[k], values) == 0)
          nt_stores[k] = values[0];
      }
    }
  char pages[160] = "-";
  describe_pages(d, ctx, state, pages, sizeof pages);
  d->fini(ctx, state);
  printf("Function    Best Rate MB/s  Min time\n");
  for (int k = 0; k < n_kernels; k++)
    printf("%s:%*s%12.1f  %11.6f\n", labels[k], (int)(11 - strlen(labels[k])), "",
           1e-6 * (double)bytes[k] / best[k], best[k]);
  /* The nt_stores metric's values: 0 plain, 1 non-temporal, 2 the C library's memcpy. */
  static const char *const paths[] = {"plain", "nt", "memcpy"};
  printf("Store path:");
  for (int k = 0; k < n_kernels; k++)
    printf(" %s=%s", labels[k],
           nt_stores[k] >= 0 && nt_stores[k] <= 2 ? paths[(int)nt_stores[k]] : "-");
  printf("\nPages: %s\n", pages);
  printf("%s\n", status ? "Failed validation" : "Solution Validates");
  for (int k = 0; k < n_kernels; k++)
    free(points[k]);
  return status;
}
