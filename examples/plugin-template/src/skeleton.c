/* skeleton: a minimal rigor plugin to grow a new one from. One operation multiplies an array of
 * doubles by a factor (y = scale * x); prime() refills the input outside the timed window, run()
 * is the timed loop, validate() checks every element run() wrote. The params are declared once,
 * in skeleton_params.h. */
#include <rigor/plugin.h>

#include <stddef.h>
#include <stdlib.h>

#include "skeleton_params.h"

/* The schema, from the same list as the struct: each entry's literals as YAML text. */
#define SKELETON_BOUND_UINT(x)   #x
#define SKELETON_BOUND_INT(x)    #x
#define SKELETON_BOUND_SIZE(x)   #x
#define SKELETON_BOUND_DOUBLE(x) #x
#define SKELETON_BOUND_BOOL(x)   NULL
#define SKELETON_SCHEMA(kind, field, dflt, lo, hi, text)                                           \
  {.name = #field,                                                                                 \
   .type = RIGOR_PARAM_##kind,                                                                     \
   .offset = offsetof(skeleton_params_t, field),                                                   \
   .def = #dflt,                                                                                   \
   .min = SKELETON_BOUND_##kind(lo),                                                               \
   .max = SKELETON_BOUND_##kind(hi),                                                               \
   .help = text},
static const rigor_param_t skeleton_params[] = {SKELETON_PARAMS(SKELETON_SCHEMA)};

typedef struct skeleton_state {
  const rigor_host_t *host;
  rigor_work_t *work;
  double *x, *y;
  uint64_t ops; /* operations run() executed since the last prime() */
} skeleton_state_t;

static void skeleton_free(skeleton_state_t *s) {
  free(s->x);
  free(s->y);
  free(s);
}

/* The executed bound: run() touches exactly this many elements and work is derived from it. */
static size_t skeleton_length(const skeleton_params_t *p) {
  return (size_t)p->elements;
}

static int skeleton_init(rigor_ctx_t *ctx, const rigor_host_t *host, const void *params,
                         const rigor_points_t *points, void **state, rigor_work_t *work) {
  (void)params;
  /* Allocate once, for the largest point of the sweep: run() must not allocate. */
  size_t need = 1;
  for (uint32_t i = 0; i < points->count; i++) {
    size_t n = skeleton_length(points->points[i]);
    if (n > need) need = n;
  }
  skeleton_state_t *s = calloc(1, sizeof *s);
  if (!s) return host->error(ctx, RIGOR_ENOMEM, "skeleton: out of memory for its state");
  s->host = host;
  s->work = work;
  s->x = malloc(need * sizeof *s->x);
  s->y = malloc(need * sizeof *s->y);
  if (!s->x || !s->y) {
    skeleton_free(s);
    return host->error(ctx, RIGOR_ENOMEM, "skeleton: cannot allocate 2 arrays of %zu doubles",
                       need);
  }
  *state = s;
  return 0;
}

static int skeleton_prime(rigor_ctx_t *ctx, void *state, const void *point) {
  (void)ctx;
  skeleton_state_t *s = state;
  size_t n = skeleton_length(point);
  for (size_t i = 0; i < n; i++) {
    s->x[i] = (double)(1 + i % 7);
    s->y[i] = 0;
  }
  s->ops = 0;
  /* One operation reads n doubles and writes n, with one multiplication each. */
  s->work->bytes = 2 * sizeof(double) * (uint64_t)n;
  s->work->flops = (uint64_t)n;
  return 0;
}

/* The bounds come from the point, not from prime(): the warmup calls run() before any prime(). */
static int skeleton_run(rigor_ctx_t *ctx, void *state, const void *point, uint64_t n) {
  (void)ctx;
  skeleton_state_t *s = state;
  const skeleton_params_t *p = point;
  size_t len = skeleton_length(p);
  for (uint64_t k = 0; k < n; k++)
    for (size_t i = 0; i < len; i++)
      s->y[i] = p->scale * s->x[i];
  s->ops += n;
  return 0;
}

static int skeleton_validate(rigor_ctx_t *ctx, void *state, const void *point,
                             rigor_check_t *check) {
  skeleton_state_t *s = state;
  const skeleton_params_t *p = point;
  if (s->ops == 0)
    return s->host->error(ctx, RIGOR_EVALIDATE, "skeleton: no operation ran since prime");
  size_t len = skeleton_length(p);
  check->tolerance = 0;
  for (size_t i = 0; i < len; i++)
    if (s->y[i] != p->scale * s->x[i]) check->wrong++;
  check->checked = len;
  if (check->wrong == 0) return 0;
  return s->host->error(ctx, RIGOR_EVALIDATE, "skeleton: %llu of %zu elements are wrong",
                        (unsigned long long)check->wrong, len);
}

static void skeleton_fini(rigor_ctx_t *ctx, void *state) {
  (void)ctx;
  skeleton_free(state);
}

static const rigor_plugin_t skeleton_plugin = {
    .abi_major = RIGOR_ABI_MAJOR,
    .size = sizeof(rigor_plugin_t),
    .name = "skeleton",
    .version = "0.1.0",
    .summary = "y = scale * x over an array of doubles",
    .params = skeleton_params,
    .n_params = sizeof skeleton_params / sizeof skeleton_params[0],
    .params_size = sizeof(skeleton_params_t),
    .init = skeleton_init,
    .prime = skeleton_prime,
    .run = skeleton_run,
    .validate = skeleton_validate,
    .fini = skeleton_fini,
};

const rigor_plugin_t *rigor_plugin_get(uint32_t index) {
  return index == 0 ? &skeleton_plugin : NULL;
}
