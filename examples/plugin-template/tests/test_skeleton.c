/* Unit test of the skeleton plugin, driven directly through rigor's test host
 * (rigor/test_host.h): the schema matches the params struct, the callbacks run in rigor's order
 * at the params' defaults, and a window in which nothing ran does not validate. It names no
 * param: everything comes from skeleton_params.h, so it keeps passing as the params change.
 * usage: test_skeleton PATH/skeleton.so */
/* The test host reads CLOCK_MONOTONIC and dlopens the plugin: POSIX, beyond strict C11. */
#define _POSIX_C_SOURCE 200809L

#include <rigor/test_host.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../src/skeleton_params.h"

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

/* Every entry of the list is in the schema, with its type and its field's offset. */
#define CHECK_SCHEMA_ENTRY(kind, field, dflt, lo, hi, text)                                        \
  do {                                                                                             \
    const rigor_param_t *param = find_param(d, #field);                                            \
    CHECK(param != NULL);                                                                          \
    CHECK(param && param->type == RIGOR_PARAM_##kind);                                             \
    CHECK(param && param->offset == offsetof(skeleton_params_t, field));                           \
    n_listed++;                                                                                    \
  } while (0);

static void check_schema(const rigor_plugin_t *d) {
  uint32_t n_listed = 0;
  CHECK(d->abi_major == RIGOR_ABI_MAJOR);
  CHECK(d->params_size == sizeof(skeleton_params_t));
  SKELETON_PARAMS(CHECK_SCHEMA_ENTRY)
  CHECK(d->n_params == n_listed);
}

/* The order rigor calls a plugin in: init once over every point, the warmup's run() on each
 * point before any prime(), then per window prime, run, validate; fini at the end. */
static void check_lifecycle(const rigor_plugin_t *d) {
  rigor_test_host_t th;
  rigor_test_host_init(&th);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;
  const skeleton_params_t p = {SKELETON_PARAMS(SKELETON_DEFAULT)};
  const void *pts[2] = {&p, &p};
  rigor_points_t points = {.count = 2, .points = pts};
  void *st = NULL;
  rigor_work_t work = {0};
  CHECK(d->init(ctx, &th.host, &p, &points, &st, &work) == 0 && st);
  if (!st) return;
  for (int i = 0; i < 2; i++)
    CHECK(d->run(ctx, st, pts[i], 1) == 0);
  for (int i = 0; i < 2; i++) {
    memset(&work, 0, sizeof work);
    CHECK(d->prime(ctx, st, pts[i]) == 0);
    CHECK(work.bytes > 0);
    CHECK(d->run(ctx, st, pts[i], 3) == 0);
    rigor_check_t check = {0};
    CHECK(d->validate(ctx, st, pts[i], &check) == 0);
    CHECK(check.wrong == 0 && check.checked > 0);
  }
  CHECK(th.first_error_code == 0);
  d->fini(ctx, st);
}

/* What was checked is what executed: a window in which run() never ran must not validate. */
static void check_validation_needs_a_run(const rigor_plugin_t *d) {
  rigor_test_host_t th;
  rigor_test_host_init(&th);
  rigor_ctx_t *ctx = (rigor_ctx_t *)&th;
  const skeleton_params_t p = {SKELETON_PARAMS(SKELETON_DEFAULT)};
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
    fprintf(stderr, "usage: %s PATH/skeleton.so\n", argv[0]);
    return 2;
  }
  void *handle = NULL;
  const rigor_plugin_t *d = rigor_test_plugin_open(argv[1], "skeleton", &handle);
  if (!d) return 1;
  check_schema(d);
  check_lifecycle(d);
  check_validation_needs_a_run(d);
  dlclose(handle);
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
