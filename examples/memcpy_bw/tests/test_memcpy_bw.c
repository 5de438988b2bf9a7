/* Unit test of the memcpy_bw plugin, driven directly through rigor's test host
 * (rigor/test_host.h): the schema matches the params struct, work comes from the executed bound,
 * validation catches a window that ran nothing. usage: test_memcpy_bw PATH/memcpy_bw.so */
#define _POSIX_C_SOURCE 200809L

#include <rigor/test_host.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The same layout as memcpy_bw_params_t in src/memcpy_bw.c; the schema's offsets are checked
 * against it below, so the two cannot drift apart unnoticed. */
typedef struct memcpy_bw_params {
  uint64_t bytes;
  uint64_t offset;
  int32_t method;
} memcpy_bw_params_t;

static int failures;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                     \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

static const rigor_param_t *find_param(const rigor_plugin_t *d, const char *name) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (strcmp(d->params[i].name, name) == 0) return &d->params[i];
  return NULL;
}

static void check_schema(const rigor_plugin_t *d) {
  CHECK(d->abi_major == RIGOR_ABI_MAJOR);
  CHECK(d->params_size == sizeof(memcpy_bw_params_t));
  const rigor_param_t *bytes = find_param(d, "bytes");
  const rigor_param_t *offset = find_param(d, "offset");
  const rigor_param_t *method = find_param(d, "method");
  CHECK(bytes && bytes->type == RIGOR_PARAM_SIZE &&
        bytes->offset == offsetof(memcpy_bw_params_t, bytes));
  CHECK(offset && offset->type == RIGOR_PARAM_UINT &&
        offset->offset == offsetof(memcpy_bw_params_t, offset));
  CHECK(method && method->type == RIGOR_PARAM_ENUM &&
        method->offset == offsetof(memcpy_bw_params_t, method));
}

/* The order rigor calls a plugin in: init once, the warmup's run() calls on every point before
 * any prime(), then per sample prime, run (inside the window), validate, metrics_read. */
static void check_lifecycle(const rigor_plugin_t *d) {
  rigor_test_host_t th;
  rigor_test_host_init(&th);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;
  memcpy_bw_params_t p[2] = {{.bytes = 4096, .offset = 0, .method = 0},
                             {.bytes = 100003, .offset = 3, .method = 1}};
  const void *pts[2] = {&p[0], &p[1]};
  rigor_points_t points = {.count = 2, .points = pts};
  void *st = NULL;
  rigor_work_t work = {0};
  CHECK(d->init(ctx, &th.host, &p[0], &points, &st, &work) == 0 && st);
  if (!st) return;
  for (int i = 0; i < 2; i++)
    CHECK(d->run(ctx, st, &p[i], 1) == 0);
  for (int i = 0; i < 2; i++) {
    memset(&work, 0, sizeof work);
    CHECK(d->prime(ctx, st, &p[i]) == 0);
    CHECK(work.bytes == 2 * p[i].bytes); /* read once and written once per copy */
    CHECK(d->run(ctx, st, &p[i], 3) == 0);
    rigor_check_t check = {0};
    CHECK(d->validate(ctx, st, &p[i], &check) == 0);
    CHECK(check.wrong == 0 && check.checked > 0);
    double prime_s = NAN;
    CHECK(d->metrics_read(ctx, st, &p[i], &prime_s) == 0 && isfinite(prime_s) && prime_s >= 0);
  }
  CHECK(th.first_error_code == 0);
  d->fini(ctx, st);
}

/* A window in which run() never ran must not validate: what was checked is what executed. */
static void check_validation_needs_a_run(const rigor_plugin_t *d) {
  rigor_test_host_t th;
  rigor_test_host_init(&th);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;
  memcpy_bw_params_t p = {.bytes = 1024};
  const void *pts[1] = {&p};
  rigor_points_t points = {.count = 1, .points = pts};
  void *st = NULL;
  rigor_work_t work = {0};
  CHECK(d->init(ctx, &th.host, &p, &points, &st, &work) == 0 && st);
  if (!st) return;
  CHECK(d->prime(ctx, st, &p) == 0);
  rigor_check_t check = {0};
  CHECK(d->validate(ctx, st, &p, &check) == RIGOR_EVALIDATE);
  CHECK(th.first_error_code == RIGOR_EVALIDATE && th.first_error[0] != '\0');
  d->fini(ctx, st);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PATH/memcpy_bw.so\n", argv[0]);
    return 2;
  }
  void *handle = NULL;
  const rigor_plugin_t *d = rigor_test_plugin_open(argv[1], "memcpy_bw", &handle);
  if (!d) return 1;
  check_schema(d);
  check_lifecycle(d);
  check_validation_needs_a_run(d);
  dlclose(handle);
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
