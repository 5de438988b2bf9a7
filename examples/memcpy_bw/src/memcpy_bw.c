/* memcpy_bw: the bandwidth of one memcpy (or memmove) of `bytes` bytes into a destination
 * misaligned by `offset` bytes. A small, complete rigor plugin to copy from. */
#define _POSIX_C_SOURCE 200809L

#include <rigor/plugin.h>
#include <rigor/plugin_identity.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Untouched bytes after the copied range: validation checks that the copy stopped exactly at the
 * executed bound, not just that the copied range is right. */
#define MEMCPY_BW_GUARD  64
#define MEMCPY_BW_POISON 0xA5
#define MEMCPY_BW_ALIGN  4096

typedef struct memcpy_bw_params {
  uint64_t bytes;
  uint64_t offset;
  int32_t method;
} memcpy_bw_params_t;

enum { MEMCPY_BW_MEMCPY = 0, MEMCPY_BW_MEMMOVE = 1 };

typedef struct memcpy_bw_state {
  const rigor_host_t *host;
  rigor_work_t *work;
  unsigned char *src;
  unsigned char *dst_base;
  size_t buffer_bytes; /* each of src and dst_base */
  uint64_t ops;        /* operations run() executed since the last prime() */
  double prime_s;
} memcpy_bw_state_t;

static const char *const memcpy_bw_methods[] = {"memcpy", "memmove", NULL};

static const rigor_param_t memcpy_bw_params[] = {
    {.name = "bytes",
     .type = RIGOR_PARAM_SIZE,
     .offset = offsetof(memcpy_bw_params_t, bytes),
     .def = "4MiB",
     .min = "1",
     .max = "1GiB",
     .help = "bytes copied by one operation"},
    {.name = "offset",
     .type = RIGOR_PARAM_UINT,
     .offset = offsetof(memcpy_bw_params_t, offset),
     .def = "0",
     .min = "0",
     .max = "4095",
     .help = "destination misalignment in bytes from a 4096-byte boundary"},
    {.name = "method",
     .type = RIGOR_PARAM_ENUM,
     .offset = offsetof(memcpy_bw_params_t, method),
     .def = "memcpy",
     .choices = memcpy_bw_methods,
     .help = "the libc function that copies"},
};

static const rigor_metric_t memcpy_bw_metrics[] = {
    {.name = "prime_s",
     .unit = "s",
     .better = RIGOR_LOWER_IS_BETTER,
     .help = "time prime() took to first-touch and poison the buffers (outside the window)"},
};

/* The executed bound: the bytes one operation copies. run() copies exactly this many and work is
 * derived from it, so the rate can never describe a different loop than the one that ran. */
static size_t memcpy_bw_len(const memcpy_bw_params_t *p) {
  return (size_t)p->bytes;
}

static unsigned char *memcpy_bw_dst(const memcpy_bw_state_t *s, const memcpy_bw_params_t *p) {
  return s->dst_base + p->offset;
}

static void memcpy_bw_free(memcpy_bw_state_t *s) {
  free(s->src);
  free(s->dst_base);
  free(s);
}

static int memcpy_bw_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                          const rigor_points_t *points, void **state, rigor_work_t *work) {
  (void)params;
  /* Allocate once for the largest point: run() must not allocate. */
  size_t need = 0;
  for (uint32_t i = 0; i < points->count; i++) {
    const memcpy_bw_params_t *p = points->points[i];
    size_t total = (size_t)(p->bytes + p->offset) + MEMCPY_BW_GUARD;
    if (total > need) need = total;
  }

  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0 && 2 * (double)need > 0.5 * (double)pages * (double)page_size)
    return host->error(ctx, RIGOR_EUNAVAILABLE,
                       "memcpy_bw needs 2 x %zu bytes, more than half of this machine's memory",
                       need);

  memcpy_bw_state_t *s = calloc(1, sizeof *s);
  if (!s) return host->error(ctx, RIGOR_ENOMEM, "memcpy_bw: out of memory for its state");
  s->host = host;
  s->work = work;
  size_t rounded = (need + MEMCPY_BW_ALIGN - 1) / MEMCPY_BW_ALIGN * MEMCPY_BW_ALIGN;
  s->buffer_bytes = rounded;
  s->src = aligned_alloc(MEMCPY_BW_ALIGN, rounded);
  s->dst_base = aligned_alloc(MEMCPY_BW_ALIGN, rounded);
  if (!s->src || !s->dst_base) {
    memcpy_bw_free(s);
    return host->error(ctx, RIGOR_ENOMEM, "memcpy_bw: cannot allocate 2 x %zu bytes", rounded);
  }
  host->log(ctx, RIGOR_LOG_DEBUG, "memcpy_bw: 2 x %zu bytes allocated", rounded);
  *state = s;
  return 0;
}

static int memcpy_bw_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  memcpy_bw_state_t *s = state;
  const memcpy_bw_params_t *p = point;
  uint64_t t0 = s->host->now_ns(ctx);

  size_t len = memcpy_bw_len(p);
  for (size_t i = 0; i < len; i++)
    s->src[i] = (unsigned char)(i * 131u + 7u);
  memset(memcpy_bw_dst(s, p), MEMCPY_BW_POISON, len + MEMCPY_BW_GUARD);
  s->ops = 0;

  /* One operation reads len bytes and writes len bytes. */
  s->work->bytes = 2 * (uint64_t)len;
  s->work->flops = 0;
  s->work->bus_factor = 1;
  s->prime_s = (double)(s->host->now_ns(ctx) - t0) * 1e-9;
  return 0;
}

/* Bounds come from the point, not from prime(): the warmup calls run() before any prime(). */
static int memcpy_bw_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx;
  memcpy_bw_state_t *s = state;
  const memcpy_bw_params_t *p = point;
  unsigned char *dst = memcpy_bw_dst(s, p);
  size_t len = memcpy_bw_len(p);
  if (p->method == MEMCPY_BW_MEMMOVE) {
    for (uint64_t i = 0; i < n; i++)
      memmove(dst, s->src, len);
  } else {
    for (uint64_t i = 0; i < n; i++)
      memcpy(dst, s->src, len);
  }
  s->ops += n;
  return 0;
}

static int memcpy_bw_validate(rigor_ctx_t *ctx, void *state, const void *point,
                              rigor_check_t *check) {
  memcpy_bw_state_t *s = state;
  const memcpy_bw_params_t *p = point;
  check->tolerance = 0;
  if (s->ops == 0)
    return s->host->error(ctx, RIGOR_EVALIDATE, "memcpy_bw: no operation ran since prime");

  const unsigned char *dst = memcpy_bw_dst(s, p);
  size_t len = memcpy_bw_len(p);
  uint64_t first_wrong = UINT64_MAX;
  for (size_t i = 0; i < len + MEMCPY_BW_GUARD; i++) {
    unsigned char want = i < len ? s->src[i] : MEMCPY_BW_POISON;
    if (dst[i] != want) {
      if (first_wrong == UINT64_MAX) first_wrong = i;
      check->wrong++;
    }
  }
  check->checked = len + MEMCPY_BW_GUARD;
  if (check->wrong == 0) return 0;
  check->max_abs_err = 255;
  check->max_rel_err = 1;
  snprintf(check->detail, sizeof check->detail, "byte %llu of %zu copied (+%d guard) is wrong",
           (unsigned long long)first_wrong, len, MEMCPY_BW_GUARD);
  return s->host->error(ctx, RIGOR_EVALIDATE, "memcpy_bw: %llu wrong bytes, first at %llu",
                        (unsigned long long)check->wrong, (unsigned long long)first_wrong);
}

static int memcpy_bw_metrics_read(rigor_ctx_t *ctx, void *state, const void *point,
                                  double *values) {
  (void)ctx, (void)point;
  const memcpy_bw_state_t *s = state;
  values[0] = s->prime_s;
  return 0;
}

static void memcpy_bw_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  memcpy_bw_free(state);
}

/* What the run record should say about this process beyond rigor's own identity: facts that make
 * two results comparable or not. rigor_kv_put stops at `cap` and cuts long values. */
static int memcpy_bw_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  const memcpy_bw_state_t *s = state;
  int n = 0;
  n = rigor_kv_put(out, cap, n, "memcpy_bw.buffer_bytes", "%zu", s->buffer_bytes);
  n = rigor_kv_put(out, cap, n, "memcpy_bw.alignment", "%d", MEMCPY_BW_ALIGN);
  n = rigor_kv_put(out, cap, n, "memcpy_bw.page_size", "%ld", sysconf(_SC_PAGESIZE));
  return n;
}

static const rigor_plugin_t memcpy_bw_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "memcpy_bw",
    .version = "1.0.0",
    .summary = "bandwidth of one libc memcpy/memmove of `bytes` bytes",
    .params = memcpy_bw_params,
    .n_params = sizeof memcpy_bw_params / sizeof memcpy_bw_params[0],
    .params_size = sizeof(memcpy_bw_params_t),
    .metrics = memcpy_bw_metrics,
    .n_metrics = sizeof memcpy_bw_metrics / sizeof memcpy_bw_metrics[0],
    .init = memcpy_bw_init,
    .prime = memcpy_bw_prime,
    .run = memcpy_bw_run,
    .validate = memcpy_bw_validate,
    .fini = memcpy_bw_fini,
    .identity = memcpy_bw_identity,
    .metrics_read = memcpy_bw_metrics_read,
    /* What the hooks above do; rigor refuses a plugin whose hooks and capabilities disagree. */
    .capabilities =
        RIGOR_CAP_DECLARED | RIGOR_CAP_VALIDATES | RIGOR_CAP_IDENTITY | RIGOR_CAP_READS_METRICS,
};

const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &memcpy_bw_plugin : NULL;
}
