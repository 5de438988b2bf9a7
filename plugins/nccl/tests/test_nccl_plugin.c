#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include "test_host.h"

#define NCCL_SO RIGOR_PLUGIN_DIR "/nccl.so"

/* Mirrors the schema's order; checked against the descriptor below. */
typedef struct params {
  int32_t collective, dtype, op, placement;
  uint64_t bytes;
  int64_t root, gpus_per_process, device;
  double poll_timeout;
  int32_t check_on;
  bool graph;
} params_t;

static const rigor_param_t *find_param(const rigor_plugin_t *d, const char *name) {
  for (uint32_t i = 0; i < d->n_params; i++)
    if (strcmp(d->params[i].name, name) == 0) return &d->params[i];
  fail_msg("no param %s", name);
  return NULL;
}

static int choice_count(const rigor_param_t *p) {
  int n = 0;
  while (p->choices[n])
    n++;
  return n;
}

static void test_descriptor(void **state) {
  (void)state;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(NCCL_SO, "nccl", &handle);
  assert_int_equal(d->abi_major, RIGOR_ABI_MAJOR);
  assert_int_equal(d->size, sizeof(rigor_plugin_t));
  assert_int_equal(d->params_size, sizeof(params_t));
  assert_non_null(d->init);
  assert_non_null(d->complete);
  assert_non_null(d->validate);
  assert_non_null(d->mark);
  assert_non_null(d->mark_read);
  assert_non_null(d->identity);
  assert_non_null(d->telemetry);
  const rigor_param_t *coll = find_param(d, "collective");
  assert_int_equal(coll->offset, offsetof(params_t, collective));
  assert_int_equal(choice_count(coll), 9);
  assert_string_equal(coll->choices[6], "sendrecv");
  const rigor_param_t *dtype = find_param(d, "dtype");
  assert_int_equal(choice_count(dtype), 12);
  assert_string_equal(dtype->def, "float");
  const rigor_param_t *op = find_param(d, "op");
  assert_int_equal(choice_count(op), 5);
  assert_string_equal(op->choices[4], "avg");
  const rigor_param_t *placement = find_param(d, "placement");
  assert_string_equal(placement->choices[0], "out");
  assert_string_equal(placement->choices[1], "in");
  const rigor_param_t *bytes = find_param(d, "bytes");
  assert_int_equal(bytes->type, RIGOR_PARAM_SIZE);
  assert_int_equal(bytes->offset, offsetof(params_t, bytes));
  assert_int_equal(find_param(d, "gpus_per_process")->offset, offsetof(params_t, gpus_per_process));
  assert_int_equal(find_param(d, "poll_timeout")->type, RIGOR_PARAM_DOUBLE);
  const rigor_param_t *check_on = find_param(d, "check_on");
  assert_int_equal(check_on->offset, offsetof(params_t, check_on));
  assert_int_equal(choice_count(check_on), 3);
  assert_string_equal(check_on->def, "auto");
  assert_string_equal(check_on->choices[1], "device");
  assert_string_equal(check_on->choices[2], "host");
  const rigor_param_t *graph = find_param(d, "graph");
  assert_int_equal(graph->type, RIGOR_PARAM_BOOL);
  assert_int_equal(graph->offset, offsetof(params_t, graph));
  assert_string_equal(graph->def, "false");
  assert_int_equal(d->n_metrics, 3);
  assert_string_equal(d->metrics[0].name, "check_s");
  assert_string_equal(d->metrics[1].name, "graph_ops");
  assert_string_equal(d->metrics[2].name, "graph_captures");
  assert_non_null(d->metrics_read);
  assert_non_null(d->warm_points);
  dlclose(handle);
}

static params_t defaults(void) {
  return (params_t){.collective = 0,
                    .dtype = 8,
                    .op = 0,
                    .placement = 0,
                    .bytes = 1 << 20,
                    .root = 0,
                    .gpus_per_process = 1,
                    .device = -1,
                    .poll_timeout = 60,
                    .check_on = 0,
                    .graph = false};
}

static void test_init_without_device_is_unavailable(void **state) {
  (void)state;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess && count > 0)
    skip(); /* this machine has a GPU: the device check covers it */
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(NCCL_SO, "nccl", &handle);
  test_host_t th;
  test_host_init(&th);
  params_t small = defaults(), large = defaults();
  large.bytes = 64 << 20;
  large.placement = 1;
  const void *pts[] = {&small, &large};
  rigor_points_t points = {2, pts};
  rigor_work_t work = {0};
  void *st = NULL;
  int rc = d->init((rigor_ctx_t *)&th, &th.host, &small, &points, &st, &work);
  assert_int_equal(rc, RIGOR_EUNAVAILABLE);
  assert_int_equal(th.first_error_code, RIGOR_EUNAVAILABLE);
  assert_null(st);
  char expected[512];
  snprintf(expected, sizeof expected, "cudaGetDeviceCount: %s", cudaGetErrorString(err));
  assert_string_equal(th.first_error, expected);
  dlclose(handle);
}

static void test_init_refuses_swept_gpu_count(void **state) {
  (void)state;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(NCCL_SO, "nccl", &handle);
  test_host_t th;
  test_host_init(&th);
  params_t a = defaults(), b = defaults();
  b.gpus_per_process = 2;
  const void *pts[] = {&a, &b};
  rigor_points_t points = {2, pts};
  rigor_work_t work = {0};
  void *st = NULL;
  assert_int_equal(d->init((rigor_ctx_t *)&th, &th.host, &a, &points, &st, &work), RIGOR_EINVAL);
  assert_string_equal(th.first_error, "gpus_per_process and device cannot be swept (point 1 of 2)");
  assert_null(st);
  dlclose(handle);
}

static void test_init_refuses_root_outside_communicator(void **state) {
  (void)state;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(NCCL_SO, "nccl", &handle);
  test_host_t th;
  test_host_init(&th);
  params_t p = defaults();
  p.collective = 3; /* broadcast */
  p.root = 2;
  p.gpus_per_process = 2;
  const void *pts[] = {&p};
  rigor_points_t points = {1, pts};
  rigor_work_t work = {0};
  void *st = NULL;
  assert_int_equal(d->init((rigor_ctx_t *)&th, &th.host, &p, &points, &st, &work), RIGOR_EINVAL);
  assert_string_equal(th.first_error, "root 2 is not a rank of a 2-rank communicator");
  dlclose(handle);
}

static void test_init_refuses_fp8_average(void **state) {
  (void)state;
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(NCCL_SO, "nccl", &handle);
  test_host_t th;
  test_host_init(&th);
  params_t sum = defaults(), avg = defaults();
  sum.dtype = avg.dtype = 11; /* f8e5m2 */
  avg.op = 4;                 /* avg */
  const void *pts[] = {&sum, &avg};
  rigor_points_t points = {2, pts};
  rigor_work_t work = {0};
  void *st = NULL;
  assert_int_equal(d->init((rigor_ctx_t *)&th, &th.host, &sum, &points, &st, &work), RIGOR_EINVAL);
  assert_string_equal(th.first_error,
                      "op avg with dtype f8e5m2: NCCL has no average for fp8 types (point 1)");
  assert_null(st);
  dlclose(handle);
}

/* check_on device needs the check kernels: with them init goes on (and finds no GPU here), without
 * them it refuses before touching a device. */
static void test_device_checks_need_the_kernels(void **state) {
  (void)state;
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) skip();
  void *handle;
  const rigor_plugin_t *d = test_plugin_open(NCCL_SO, "nccl", &handle);
  test_host_t th;
  test_host_init(&th);
  params_t p = defaults();
  p.check_on = 1; /* device */
  p.graph = true;
  const void *pts[] = {&p};
  rigor_points_t points = {1, pts};
  rigor_work_t work = {0};
  void *st = NULL;
  int rc = d->init((rigor_ctx_t *)&th, &th.host, &p, &points, &st, &work);
#ifdef NCCL_HAVE_KERNELS
  assert_int_equal(rc, RIGOR_EUNAVAILABLE);
#else
  assert_int_equal(rc, RIGOR_EINVAL);
  assert_string_equal(th.first_error,
                      "check_on device: this nccl plugin was built without its check kernels (no "
                      "CUDA compiler at build time); use check_on auto or host (point 0)");
#endif
  assert_null(st);
  dlclose(handle);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_descriptor),
      cmocka_unit_test(test_init_without_device_is_unavailable),
      cmocka_unit_test(test_init_refuses_swept_gpu_count),
      cmocka_unit_test(test_init_refuses_root_outside_communicator),
      cmocka_unit_test(test_init_refuses_fp8_average),
      cmocka_unit_test(test_device_checks_need_the_kernels),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
