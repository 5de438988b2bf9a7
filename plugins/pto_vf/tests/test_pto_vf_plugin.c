#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <xxhash.h>

#include "pto_vf_gen.h"
#include "pto_vf_params.h"
#include "test_host.h"

typedef struct fixture {
  void *so;
  const rigor_plugin_t *d;
  test_host_t th;
  char dir[64];
  vf_gen_truth_t truth;
  pto_vf_params_t p;
} fixture_t;

static int find_metric(const rigor_plugin_t *d, const char *name) {
  for (uint32_t i = 0; i < d->n_metrics; i++)
    if (strcmp(d->metrics[i].name, name) == 0) return (int)i;
  fail_msg("no metric %s", name);
  return -1;
}

static void write_text(const char *dir, const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void generate(fixture_t *fx, uint64_t scale, uint32_t malformed_every) {
  char sp[256], ep[256];
  snprintf(sp, sizeof sp, "%s/core0.veccore0.instr_popped_log.dump", fx->dir);
  snprintf(ep, sizeof ep, "%s/core0.veccore0.instr_log.dump", fx->dir);
  FILE *s = fopen(sp, "w"), *e = fopen(ep, "w");
  vf_gen_opts_t o = {.vf_count = 200,
                     .with_ids = true,
                     .noise_per_vf = 4,
                     .seed = 5,
                     .start_cycle = 100,
                     .cycle_scale = scale,
                     .malformed_every = malformed_every};
  assert_int_equal(vf_gen_write(s, e, &o, &fx->truth), 0);
  fclose(s);
  fclose(e);
}

static int setup(void **state) {
  fixture_t *fx = calloc(1, sizeof *fx);
  fx->d = test_plugin_open(PTO_VF_SO, "pto_vf", &fx->so);
  test_host_init(&fx->th);
  snprintf(fx->dir, sizeof fx->dir, "/tmp/pto_vf_plugin_XXXXXX");
  assert_non_null(mkdtemp(fx->dir));
  generate(fx, 1, 0);
  fx->p = (pto_vf_params_t){.trace_dir = fx->dir,
                            .vec_core = "core0.veccore0",
                            .preload = true,
                            .runner_timeout = 60,
                            .require_golden = true,
                            .atol = -1,
                            .rtol = -1,
                            .malformed_threshold = 0.001};
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fixture_t *fx = *state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", fx->dir);
  assert_int_equal(system(cmd), 0);
  dlclose(fx->so);
  free(fx);
  return 0;
}

typedef struct outcome {
  int init_rc, prime_rc, run_rc, validate_rc;
  rigor_check_t check;
  double m[64];
  rigor_work_t work;
} outcome_t;

/* One process lifetime with `samples` samples of the single point. */
static void drive(fixture_t *fx, int samples, outcome_t *out) {
  memset(out, 0, sizeof *out);
  const void *pts[1] = {&fx->p};
  rigor_points_t points = {1, pts};
  void *st = NULL;
  rigor_ctx_t *ctx = (rigor_ctx_t *)&fx->th;
  out->init_rc = fx->d->init(ctx, &fx->th.host, &fx->p, &points, &st, &out->work);
  if (out->init_rc) return;
  for (int i = 0; i < samples; i++) {
    out->prime_rc = fx->d->prime(ctx, st, &fx->p);
    if (out->prime_rc) break;
    out->run_rc = fx->d->run(ctx, st, &fx->p, 2);
    memset(&out->check, 0, sizeof out->check);
    out->validate_rc = fx->d->validate(ctx, st, &fx->p, &out->check);
    assert_int_equal(fx->d->metrics_read(ctx, st, &fx->p, out->m), 0);
  }
  fx->d->fini(ctx, st);
}

static double metric(fixture_t *fx, outcome_t *o, const char *name) {
  return o->m[find_metric(fx->d, name)];
}

static void test_descriptor(void **state) {
  fixture_t *fx = *state;
  assert_int_equal(fx->d->abi_major, RIGOR_ABI_MAJOR);
  assert_true(fx->d->flags & RIGOR_PLUGIN_RUNS_COMMANDS);
  assert_int_equal(fx->d->params_size, sizeof(pto_vf_params_t));
  int total = find_metric(fx->d, "vf_total_cycles");
  assert_int_equal(total, 0);
  assert_int_equal(fx->d->metrics[total].better, RIGOR_LOWER_IS_BETTER);
  assert_string_equal(fx->d->metrics[total].unit, "cycles");
  assert_int_equal(fx->d->metrics[find_metric(fx->d, "speedup_vs_baseline")].better,
                   RIGOR_HIGHER_IS_BETTER);
}

static void test_valid_sample_with_golden_and_rates(void **state) {
  fixture_t *fx = *state;
  write_text(fx->dir, "golden.txt",
             "status = PASS\nmismatches = 0\nmax_abs_err = 1e-6\nmax_rel_err = 2e-5\n"
             "atol = 0.001\nrtol = 0.001\nbuild_flags = -O2 -mllvm -cce-aicore-vec-misched=0\n");
  char golden[128];
  snprintf(golden, sizeof golden, "%s/golden.txt", fx->dir);
  fx->p.golden = golden;
  fx->p.build_flags = "-O2 -mllvm -cce-aicore-vec-misched=0";
  fx->p.atol = 0.001;
  fx->p.rtol = 0.001;
  double total = (double)fx->truth.total;
  fx->p.baseline_cycles = 2 * total;
  fx->p.benchmark_cycles = total / 2;
  outcome_t o;
  drive(fx, 3, &o);
  assert_int_equal(o.init_rc, 0);
  assert_int_equal(o.validate_rc, 0);
  assert_int_equal(o.check.wrong, 0);
  assert_string_equal(o.check.detail, "");
  assert_true(o.work.bytes == fx->truth.bytes);
  assert_true(metric(fx, &o, "vf_total_cycles") == total);
  assert_true(metric(fx, &o, "vf_count") == (double)fx->truth.vf_count);
  assert_true(metric(fx, &o, "vf_execute_sum") == (double)fx->truth.exec_sum);
  assert_true(metric(fx, &o, "speedup_vs_baseline") == 2.0);
  assert_true(metric(fx, &o, "performance_vs_benchmark_percent") == 50.0);
  assert_true(metric(fx, &o, "golden_pass") == 1.0);
  assert_true(metric(fx, &o, "golden_mismatches") == 0.0);
  assert_true(metric(fx, &o, "golden_max_rel_err") == 2e-5);
  assert_true(metric(fx, &o, "sample_valid") == 1.0);
  /* Three repeats of a static trace: deterministic, zero spread. */
  assert_true(metric(fx, &o, "vf_total_repeats") == 3.0);
  assert_true(metric(fx, &o, "vf_total_deterministic") == 1.0);
  assert_true(metric(fx, &o, "vf_total_spread") == 0.0);
  assert_true(metric(fx, &o, "vf_total_median") == total);
}

static void expect_invalid(fixture_t *fx, const char *reason) {
  outcome_t o;
  drive(fx, 1, &o);
  assert_int_equal(o.init_rc, 0);
  assert_int_equal(o.prime_rc, 0);
  assert_int_equal(o.validate_rc, RIGOR_EVALIDATE);
  assert_true(o.check.wrong > 0);
  if (!strstr(o.check.detail, reason)) fail_msg("detail '%s' lacks '%s'", o.check.detail, reason);
  assert_true(metric(fx, &o, "sample_valid") == 0.0);
  assert_true(isnan(metric(fx, &o, "speedup_vs_baseline")));
}

static void test_invalid_rules(void **state) {
  fixture_t *fx = *state;
  char golden[128];
  snprintf(golden, sizeof golden, "%s/golden.txt", fx->dir);
  fx->p.baseline_cycles = 1000;
  expect_invalid(fx, "no golden result");
  fx->p.golden = golden;
  write_text(fx->dir, "golden.txt", "status = FAIL\nmismatches = 17\n");
  expect_invalid(fx, "correctness failed: golden status FAIL, mismatches 17");
  write_text(fx->dir, "golden.txt", "{\"status\": \"PASS\", \"build_flags\": \"-O3\"}");
  fx->p.build_flags = "-O2";
  expect_invalid(fx, "build flags differ from the contract: recorded '-O3', contract '-O2'");
  fx->p.build_flags = NULL;
  fx->p.workload = "n=4096";
  expect_invalid(fx, "workload differs from the contract: recorded '(none)'");
  fx->p.workload = NULL;
  write_text(fx->dir, "golden.txt", "status = PASS\natol = 0.01\n");
  fx->p.atol = 0.001;
  expect_invalid(fx, "threshold differs from the contract: atol recorded 0.01, contract 0.001");
  fx->p.atol = -1;
  write_text(fx->dir, "golden.txt", "status = PASS\nspeed = fast\n");
  expect_invalid(fx, "golden.txt:2: unknown key 'speed'");
  write_text(fx->dir, "golden.txt", "status = PASS\n");
  generate(fx, 1, 10);
  expect_invalid(fx, "malformed trace: 40 of");
  fx->p.malformed_threshold = 0.05;
  outcome_t o;
  drive(fx, 1, &o);
  assert_int_equal(o.validate_rc, 0);
  assert_true(metric(fx, &o, "malformed_lines") == 40.0);
  fx->p.vec_core = "core1.veccore0";
  expect_invalid(fx, "trace file missing");
}

static void test_fixture_without_vfs_is_invalid(void **state) {
  fixture_t *fx = *state;
  fx->p.trace_dir = PTO_VF_DATA "/msopprof_910B";
  fx->p.require_golden = false;
  expect_invalid(fx, "trace has no VF start record");
}

static void test_runner_needs_permission(void **state) {
  fixture_t *fx = *state;
  fx->p.runner = "[\"/bin/true\"]";
  outcome_t o;
  drive(fx, 1, &o);
  assert_int_equal(o.init_rc, RIGOR_ECONFIG);
  assert_non_null(strstr(fx->th.first_error, "not allowed; rerun with --allow-commands"));
  test_host_init(&fx->th);
  fx->th.allow_commands = 1;
  fx->p.runner = "./run.sh --x";
  drive(fx, 1, &o);
  assert_int_equal(o.init_rc, RIGOR_ECONFIG);
  assert_non_null(strstr(fx->th.first_error, "expected a non-empty JSON array of strings"));
}

static void test_runner_produces_trace_and_verdict(void **state) {
  fixture_t *fx = *state;
  char script[128], runner[512], out_dir[160];
  snprintf(out_dir, sizeof out_dir, "%s/run", fx->dir);
  snprintf(script, sizeof script, "%s/run.sh", fx->dir);
  write_text(fx->dir, "run.sh",
             "set -e\n\"$1\" \"$PTO_VF_TRACE_DIR\" --vfs 50 --scale \"$2\" > /dev/null\n"
             "echo \"golden: $3 mismatches=$4 max_abs_err=0.5\"\necho building >&2\nexit \"$5\"\n");
  fx->th.allow_commands = 1;
  fx->p.trace_dir = out_dir;
  fx->p.status_regex = "golden: (PASS|FAIL)";
  fx->p.mismatches_regex = "mismatches=([0-9]+)";
  fx->p.max_abs_err_regex = "max_abs_err=([0-9.eE+-]+)";
  snprintf(runner, sizeof runner, "[\"/bin/sh\", \"%s\", \"%s\", \"2\", \"PASS\", \"0\", \"0\"]",
           script, VF_TRACEGEN);
  fx->p.runner = runner;
  outcome_t o;
  drive(fx, 1, &o);
  assert_int_equal(o.validate_rc, 0);
  assert_true(metric(fx, &o, "runner_exit_code") == 0.0);
  assert_true(metric(fx, &o, "golden_pass") == 1.0);
  assert_true(metric(fx, &o, "golden_max_abs_err") == 0.5);
  assert_true(metric(fx, &o, "vf_count") == 50.0);
  assert_true(metric(fx, &o, "runner_wall_s") >= 0.0);

  snprintf(runner, sizeof runner, "[\"/bin/sh\", \"%s\", \"%s\", \"2\", \"FAIL\", \"3\", \"0\"]",
           script, VF_TRACEGEN);
  expect_invalid(fx, "correctness failed: golden status FAIL, mismatches 3");
  snprintf(runner, sizeof runner, "[\"/bin/sh\", \"%s\", \"%s\", \"2\", \"PASS\", \"0\", \"4\"]",
           script, VF_TRACEGEN);
  expect_invalid(fx, "runner or build failed: exit status 4");
}

static void test_identity_and_exports(void **state) {
  fixture_t *fx = *state;
  char toml[128], csv[128], json[128], agg[128];
  snprintf(toml, sizeof toml, "%s/device_addrs.toml", fx->dir);
  snprintf(csv, sizeof csv, "%s/timeline.csv", fx->dir);
  snprintf(json, sizeof json, "%s/timeline.json", fx->dir);
  snprintf(agg, sizeof agg, "%s/agg.csv", fx->dir);
  write_text(fx->dir, "device_addrs.toml",
             "[src]\naddr = \"0x1000\"\nsize_bytes = 4096\n[dst]\naddr = \"0x9000\"\n"
             "size_bytes = 4096\n");
  fx->p.require_golden = false;
  fx->p.device_addrs = toml;
  fx->p.timeline_csv = csv;
  fx->p.timeline_json = json;
  fx->p.aggregates_csv = agg;
  const void *pts[1] = {&fx->p};
  rigor_points_t points = {1, pts};
  void *st = NULL;
  rigor_work_t work = {0};
  rigor_ctx_t *ctx = (rigor_ctx_t *)&fx->th;
  assert_int_equal(fx->d->init(ctx, &fx->th.host, &fx->p, &points, &st, &work), 0);
  assert_int_equal(fx->d->prime(ctx, st, &fx->p), 0);
  rigor_kv_t kv[8];
  int n = fx->d->identity(ctx, st, kv, 8);
  assert_int_equal(n, 2);
  assert_string_equal(kv[0].key, "trace:core0.veccore0.instr_popped_log.dump");
  assert_non_null(strstr(kv[0].value, "xxh3_128="));
  fx->d->fini(ctx, st);

  FILE *f = fopen(csv, "r");
  assert_non_null(f);
  char line[512];
  assert_non_null(fgets(line, sizeof line, f));
  assert_string_equal(line, "core,start,end,pipe,opcode,class,buffer,pc,id\n");
  int rows = 0, loads_in_src = 0;
  while (fgets(line, sizeof line, f)) {
    rows++;
    if (strstr(line, ",MTE2,DMA_MOV,load,src,")) loads_in_src++;
  }
  fclose(f);
  /* 200 VFs, 200 PUSH_PB and 4 noise instructions per VF, every one paired. */
  assert_int_equal(rows, 200 * 6);
  assert_int_equal(loads_in_src, fx->truth.class_count[0]);
  f = fopen(agg, "r");
  assert_non_null(f);
  int found = 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "core0.veccore0,dst,store,", 25) == 0) found = 1;
  fclose(f);
  assert_true(found);
  f = fopen(json, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f));
  assert_string_equal(line, "[\n");
  assert_non_null(fgets(line, sizeof line, f));
  assert_non_null(strstr(line, "{\"core\": \"core0.veccore0\", \"start\": "));
  fclose(f);
}

/* The identity value a dump must get: its size and XXH3-128, computed here on a separate read
 * of the file through stdio. */
static void expected_identity(const char *dir, const char *name, char *out, size_t cap) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  XXH3_state_t *h = XXH3_createState();
  XXH3_128bits_reset(h);
  char buf[4096];
  size_t got, bytes = 0;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
    XXH3_128bits_update(h, buf, got);
    bytes += got;
  }
  fclose(f);
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits_digest(h));
  XXH3_freeState(h);
  size_t used = (size_t)snprintf(out, cap, "bytes=%zu xxh3_128=", bytes);
  for (size_t b = 0; b < sizeof c.digest; b++)
    used += (size_t)snprintf(out + used, cap - used, "%02x", c.digest[b]);
}

static const char *const dump_names[] = {"core0.veccore0.instr_popped_log.dump",
                                         "core0.veccore0.instr_log.dump"};

/* Identity before the first prime (as the core asks for it), after it, preloaded or streamed:
 * always the size and hash of the bytes on disk. */
static void test_identity_hash_is_the_files_hash(void **state) {
  fixture_t *fx = *state;
  char want[2][128];
  for (int k = 0; k < 2; k++)
    expected_identity(fx->dir, dump_names[k], want[k], sizeof want[k]);
  fx->p.require_golden = false;
  for (int preload = 0; preload < 2; preload++) {
    fx->p.preload = preload;
    for (int after_prime = 0; after_prime < 2; after_prime++) {
      const void *pts[1] = {&fx->p};
      rigor_points_t points = {1, pts};
      void *st = NULL;
      rigor_work_t work = {0};
      rigor_ctx_t *ctx = (rigor_ctx_t *)&fx->th;
      assert_int_equal(fx->d->init(ctx, &fx->th.host, &fx->p, &points, &st, &work), 0);
      if (after_prime) assert_int_equal(fx->d->prime(ctx, st, &fx->p), 0);
      rigor_kv_t kv[8];
      assert_int_equal(fx->d->identity(ctx, st, kv, 8), 2);
      if (!after_prime) assert_int_equal(fx->d->prime(ctx, st, &fx->p), 0);
      for (int k = 0; k < 2; k++) {
        char key[96];
        snprintf(key, sizeof key, "trace:%s", dump_names[k]);
        assert_string_equal(kv[k].key, key);
        assert_string_equal(kv[k].value, want[k]);
      }
      assert_int_equal(fx->d->run(ctx, st, &fx->p, 1), 0);
      fx->d->fini(ctx, st);
    }
  }
}

/* Bytes this process has read through read(2) so far (/proc/self/io rchar). */
static uint64_t bytes_read(void) {
  FILE *f = fopen("/proc/self/io", "r");
  if (!f) return 0;
  char line[128];
  unsigned long long v = 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "rchar: %llu", &v) == 1) break;
  fclose(f);
  return v;
}

/* How many of this process's mappings are of `path` (/proc/self/maps). */
static int mappings_of(const char *path) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return -1;
  char line[1024];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    const char *end = line + strlen(line);
    if (strlen(line) >= strlen(path) && strcmp(end - strlen(path), path) == 0) n++;
  }
  fclose(f);
  return n;
}

/* One pass over each dump serves the identity hash and the preload: the dump is mapped from the
 * page cache once (nothing copied, nothing read through read(2)), and later primes keep the
 * mapping while the file is unchanged; a rewritten dump is mapped anew. */
static void test_one_read_serves_identity_and_every_prime(void **state) {
  fixture_t *fx = *state;
  if (bytes_read() == 0 || mappings_of("/") < 0) skip(); /* no /proc/self here */
  fx->p.require_golden = false;
  struct stat a, b;
  char sp[128], ep[128];
  snprintf(sp, sizeof sp, "%s/%s", fx->dir, dump_names[0]);
  snprintf(ep, sizeof ep, "%s/%s", fx->dir, dump_names[1]);
  assert_int_equal(stat(sp, &a), 0);
  assert_int_equal(stat(ep, &b), 0);
  const uint64_t total = (uint64_t)a.st_size + (uint64_t)b.st_size;

  const void *pts[1] = {&fx->p};
  rigor_points_t points = {1, pts};
  void *st = NULL;
  rigor_work_t work = {0};
  rigor_ctx_t *ctx = (rigor_ctx_t *)&fx->th;
  const int total_metric = find_metric(fx->d, "vf_total_cycles");
  double m[64];
  const uint64_t before = bytes_read();
  assert_int_equal(fx->d->init(ctx, &fx->th.host, &fx->p, &points, &st, &work), 0);
  rigor_kv_t kv[8];
  assert_int_equal(fx->d->identity(ctx, st, kv, 8), 2);
  for (int cycle = 0; cycle < 3; cycle++) {
    assert_int_equal(fx->d->prime(ctx, st, &fx->p), 0);
    assert_int_equal(fx->d->run(ctx, st, &fx->p, 2), 0);
    assert_int_equal(work.bytes, total);
  }
  const uint64_t copied = bytes_read() - before;
  if (copied > total / 8)
    fail_msg("read(2) %llu bytes beside dumps of %llu", (unsigned long long)copied,
             (unsigned long long)total);
  assert_int_equal(mappings_of(sp), 1);
  assert_int_equal(mappings_of(ep), 1);
  assert_int_equal(fx->d->metrics_read(ctx, st, &fx->p, m), 0);
  assert_true(m[total_metric] == (double)fx->truth.total);

  generate(fx, 3, 0); /* the same files rewritten with other cycles */
  assert_int_equal(fx->d->prime(ctx, st, &fx->p), 0);
  assert_int_equal(fx->d->run(ctx, st, &fx->p, 1), 0);
  assert_int_equal(fx->d->metrics_read(ctx, st, &fx->p, m), 0);
  assert_true(m[total_metric] == (double)fx->truth.total);
  assert_int_equal(mappings_of(sp), 1);
  fx->d->fini(ctx, st);
  assert_int_equal(mappings_of(sp), 0);
  assert_int_equal(mappings_of(ep), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_descriptor, setup, teardown),
      cmocka_unit_test_setup_teardown(test_valid_sample_with_golden_and_rates, setup, teardown),
      cmocka_unit_test_setup_teardown(test_invalid_rules, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fixture_without_vfs_is_invalid, setup, teardown),
      cmocka_unit_test_setup_teardown(test_runner_needs_permission, setup, teardown),
      cmocka_unit_test_setup_teardown(test_runner_produces_trace_and_verdict, setup, teardown),
      cmocka_unit_test_setup_teardown(test_identity_and_exports, setup, teardown),
      cmocka_unit_test_setup_teardown(test_identity_hash_is_the_files_hash, setup, teardown),
      cmocka_unit_test_setup_teardown(test_one_read_serves_identity_and_every_prime, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
