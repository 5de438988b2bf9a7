#include "fixture.h"

#include "plan.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void fx_defaults(fx_spec_t *s) {
  memset(s, 0, sizeof *s);
  s->name = "exp";
  s->design = "latin";
  s->n_variants = 2;
  s->n_blocks = 4;
  s->cycles = 5;
  s->points = 1;
  s->cpu_model = "Test CPU 9000";
  s->plugin_version = "1.0";
  s->base_time = 100e-6;
  s->cv = 0.005;
  s->bytes = 1 << 20;
  s->seed = 1;
  s->cells = 1;
  s->wrong_run = s->failed_run = s->interrupted_run = -1;
}

static double gauss(rigor_rng_t *rng) {
  double u1 = rigor_rng_uniform(rng), u2 = rigor_rng_uniform(rng);
  return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
}

/* The schedule the design really gives, so the analysis sees what rigor run would write. */
static uint32_t variant_at(const fx_spec_t *s, uint32_t b, uint32_t j) {
  rigor_order_t o = {.design = rigor_design_find(s->design), .replicates = s->n_blocks};
  rigor_schedule_t sched;
  if (!o.design || rigor_plan_build(&o, s->n_variants, &sched) != 0) abort();
  uint32_t v = sched.cells[(size_t)b * s->n_variants + j];
  rigor_schedule_free(&sched);
  return v;
}

static uint32_t level_of(const fx_spec_t *s, uint32_t v) {
  return v / (s->cells ? s->cells : 1);
}

static void sample(FILE *f, const fx_spec_t *s, rigor_rng_t *rng, uint32_t run, uint32_t attempt,
                   uint32_t v, uint32_t pos, uint32_t c, uint32_t p, int wrong, double run_factor) {
  double t = s->base_time * (1 + p) * (1 + (level_of(s, v) == 1 ? s->slowdown : 0)) *
             (1 + (c == 0 ? s->first_cycle : 0)) * (1 + (pos == 0 ? s->position0 : 0)) *
             run_factor * (1 + s->cv * gauss(rng)) * (run == 0 && c == 1 ? 1 + s->outlier : 1);
  if (s->quantum > 0) t = round(t / s->quantum) * s->quantum;
  double metric = level_of(s, v) == 1 && s->metric_level1 != 0 ? s->metric_level1 : s->metric_value;
  fprintf(f,
          "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"%s\",\"run\":%u,"
          "\"attempt\":%u,\"variant\":%u,\"cycle\":%u,\"point\":%u,\"point_label\":\"bytes=%u\","
          "\"point_params\":{\"bytes\":%u},\"status\":\"%s\",\"window\":\"wall\",\"time_s\":%.12g,"
          "\"wall_s\":%.12g,\"cputime_s\":%.12g,\"iters\":20,\"agg\":1,\"bytes\":%.0f,"
          "\"flops\":0,\"bus_factor\":1,\"rates\":{\"bytes_per_s\":%.12g,\"flops_per_s\":null,"
          "\"busbw_bytes_per_s\":%.12g},\"check\":{\"checked\":1,\"wrong\":%d}",
          s->name, run, attempt, v, c, p, 1024u << p, 1024u << p, wrong ? "wrong" : "ok", t, t, t,
          s->bytes, s->bytes / t, s->bytes / t, wrong);
  if (s->metric) fprintf(f, ",\"metrics\":{\"%s\":%.12g}", s->metric, metric);
  if (s->iterations)
    fprintf(f,
            ",\"iterations\":{\"n\":4,\"min\":%.12g,\"max\":%.12g,\"p50\":%.12g,\"p95\":%.12g,"
            "\"p99\":%.12g,\"mean\":%.12g,\"cv\":0.03,\"source\":\"host\",\"raw\":[%.12g,%.12g,"
            "%.12g,%.12g]}",
            t * 0.9, t * 1.2, t, t * 1.2, t * 1.2, t, t * 0.9, t, t, t * 1.2);
  fputs("}\n", f);
}

static void experiment_record(FILE *f, const fx_spec_t *s) {
  fprintf(f,
          "{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"%s\","
          "\"name\":\"%s\",\"hash\":\"00\",\"config\":{\"gate\":{\"cv_max\":0.05,"
          "\"min_samples\":5},\"matrix\":{\"axes\":[{\"axis\":\"timing.warmup\",\"values\":[",
          s->name, s->name);
  uint32_t cells = s->cells ? s->cells : 1, levels = s->n_variants / cells;
  for (uint32_t l = 0; l < levels; l++)
    fprintf(f, "%s{\"label\":\"%u\",\"value\":%u}", l ? "," : "", l, l);
  fputs("]}", f);
  if (cells > 1) {
    fputs(",{\"axis\":\"threads\",\"values\":[", f);
    for (uint32_t k = 0; k < cells; k++)
      fprintf(f, "%s{\"label\":\"%u\",\"value\":%u}", k ? "," : "", k + 1, k + 1);
    fputs("]}", f);
  }
  fputs("]}},\"variants\":[", f);
  for (uint32_t v = 0; v < s->n_variants; v++) {
    char axes[96];
    if (cells > 1)
      snprintf(axes, sizeof axes, "{\"timing.warmup\":%u,\"threads\":%u}", level_of(s, v),
               v % cells + 1);
    else
      snprintf(axes, sizeof axes, "{\"timing.warmup\":%u}", v);
    fprintf(f,
            "%s{\"index\":%u,\"label\":\"v%u\",\"axes\":%s,\"settings\":"
            "{\"plugin\":\"null\",\"params\":{\"n\":1,\"threads\":%u},\"timing\":{\"iters\":20,"
            "\"warmup\":%u},\"environment\":{},\"gate\":{\"cv_max\":0.05,\"min_samples\":5}}}",
            v ? "," : "", v, v, axes, v % cells + 1, level_of(s, v));
  }
  fprintf(f, "],\"schedule\":{\"design\":\"%s\",\"seed\":0,\"replicates\":%u,\"blocks\":[",
          s->design, s->n_blocks);
  for (uint32_t b = 0; b < s->n_blocks; b++) {
    fputs(b ? ",[" : "[", f);
    for (uint32_t j = 0; j < s->n_variants; j++)
      fprintf(f, "%s%u", j ? "," : "", variant_at(s, b, j));
    fputs("]", f);
  }
  fprintf(f,
          "]},\"plugin\":{\"name\":\"null\",\"version\":\"%s\",\"sha256\":\"ab\",\"metrics\":"
          "[{\"name\":\"vf_total_cycles\",\"unit\":\"cycles\",\"better\":\"lower\"}]%s},"
          "\"clock\":{\"source\":\"CLOCK_MONOTONIC\",\"resolution_s\":1e-09},"
          "\"identity\":{\"hostname\":\"h%llu\",\"cpu\":{\"model\":\"%s\"},\"kernel\":\"6.1\"}}\n",
          s->plugin_version, s->primary ? ",\"primary_metric\":\"vf_total_cycles\"" : "",
          (unsigned long long)s->seed, s->cpu_model);
}

void fx_write(const char *path, const fx_spec_t *s) {
  FILE *f = fopen(path, "w");
  if (!f) abort();
  rigor_rng_t rng;
  rigor_rng_seed(&rng, s->seed);
  experiment_record(f, s);
  uint32_t n_runs = s->n_blocks * s->n_variants;
  for (uint32_t b = 0; b < s->n_blocks; b++)
    for (uint32_t j = 0; j < s->n_variants; j++) {
      uint32_t run = b * s->n_variants + j, v = variant_at(s, b, j);
      uint32_t node = s->nodes ? b * s->nodes / s->n_blocks : 0;
      double run_factor = (1 + s->run_sd * gauss(&rng)) *
                          (1 + (n_runs > 1 ? s->drift * run / (double)(n_runs - 1) : 0)) *
                          (1 + node * s->node_offset);
      if ((int)run == s->interrupted_run)
        for (uint32_t c = 0; c < s->cycles; c++)
          sample(f, s, &rng, run, 0, v, j, c, 0, 0, run_factor);
      bool crashed = (int)run == s->failed_run, wrong = (int)run == s->wrong_run;
      for (uint32_t c = 0; c < (crashed ? 1u : s->cycles); c++)
        for (uint32_t p = 0; p < s->points; p++)
          sample(f, s, &rng, run, 1, v, j, c, p, wrong, run_factor);
      fprintf(f,
              "{\"schema\":\"rigor.result/1\",\"type\":\"run\",\"experiment\":\"%s\",\"run\":%u,"
              "\"attempt\":1,\"block\":%u,\"position\":%u,\"variant\":%u,\"label\":\"v%u\","
              "\"status\":\"%s\",\"reason\":%s,\"elapsed_s\":0.5,\"flags\":%s,"
              "\"plugin_identity\":{\"driver\":\"1\"}",
              s->name, run, b, j, v, v,
              crashed ? "crashed"
              : wrong ? "invalid"
                      : "ok",
              crashed ? "\"SIGSEGV\""
              : wrong ? "\"check failed\""
                      : "null",
              run == 1 ? "[\"low_clock\"]" : "[]");
      if (s->nodes)
        fprintf(f,
                ",\"slurm\":{\"job\":7,\"step\":%u,\"node\":\"n%u\",\"nodes\":%u,"
                "\"tasks\":1,\"rank\":0}",
                b, node + 1, s->nodes);
      if (s->raw_telemetry)
        fprintf(f, ",\"telemetry_raw\":[{\"t\":0,\"cpu_mhz\":%d},{\"t\":0.1,\"cpu_mhz\":%d}]",
                2000 + (int)run, 2100 - (int)run);
      fputs("}\n", f);
    }
  fclose(f);
}

void fx_write_interleaved(const char *path, const fx_spec_t *s) {
  FILE *f = fopen(path, "w");
  if (!f) abort();
  rigor_rng_t rng;
  rigor_rng_seed(&rng, s->seed);
  uint32_t k = s->n_variants;
  fprintf(f,
          "{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"%s\","
          "\"name\":\"%s\",\"hash\":\"00\",\"config\":{\"gate\":{\"cv_max\":0.05,"
          "\"min_samples\":5},\"matrix\":{\"axes\":[{\"axis\":\"timing.warmup\",\"values\":[",
          s->name, s->name);
  for (uint32_t l = 0; l < k; l++)
    fprintf(f, "%s{\"label\":\"%u\",\"value\":%u}", l ? "," : "", l, l);
  fputs("]}]}},\"variants\":[", f);
  for (uint32_t v = 0; v < k; v++)
    fprintf(f,
            "%s{\"index\":%u,\"label\":\"v%u\",\"axes\":{\"timing.warmup\":%u},\"settings\":"
            "{\"plugin\":\"null\",\"params\":{},\"timing\":{\"iters\":20,\"warmup\":%u},"
            "\"environment\":{},\"gate\":{\"cv_max\":0.05,\"min_samples\":5}}}",
            v ? "," : "", v, v, v, v);
  fprintf(f,
          "],\"schedule\":{\"design\":\"sequential\",\"seed\":0,\"replicates\":%u,"
          "\"blocks\":[",
          s->n_blocks);
  for (uint32_t b = 0; b < s->n_blocks; b++)
    fprintf(f, "%s[0]", b ? "," : "");
  fputs("],\"interleave\":{\"axis\":\"timing.warmup\",\"levels\":[", f);
  for (uint32_t l = 0; l < k; l++)
    fprintf(f, "%s\"%u\"", l ? "," : "", l);
  fputs("],\"arms\":[[", f);
  for (uint32_t l = 0; l < k; l++)
    fprintf(f, "%s%u", l ? "," : "", l);
  /* Rows of a cyclic square: row r measures arm (r + j) % k at slot j (ABBA for two). */
  fputs("]],\"order\":\"abba\",\"square\":[", f);
  for (uint32_t r = 0; r < k; r++) {
    fputs(r ? ",[" : "[", f);
    for (uint32_t j = 0; j < k; j++)
      fprintf(f, "%s%u", j ? "," : "", (r + j) % k);
    fputs("]", f);
  }
  fputs("],\"offsets\":[", f);
  for (uint32_t b = 0; b < s->n_blocks; b++)
    fprintf(f, "%s%u", b ? "," : "", b % k);
  fprintf(f,
          "]}},\"plugin\":{\"name\":\"null\",\"version\":\"1.0\",\"sha256\":\"ab\","
          "\"metrics\":[]},\"clock\":{\"source\":\"CLOCK_MONOTONIC\",\"resolution_s\":1e-09},"
          "\"identity\":{\"hostname\":\"h\",\"cpu\":{\"model\":\"%s\"}}}\n",
          s->cpu_model);
  for (uint32_t b = 0; b < s->n_blocks; b++) {
    double run_factor = 1 + s->run_sd * gauss(&rng);
    double arm_factor = 1 + s->arm_run_sd * gauss(&rng);
    for (uint32_t c = 0; c < s->cycles; c++)
      for (uint32_t j = 0; j < k; j++) {
        uint32_t arm = ((c + b % k) + j) % k;
        double t = s->base_time * run_factor * (1 + (arm == 1 ? s->slowdown : 0)) *
                   (arm == 1 ? arm_factor : 1) * (1 + (j == 0 ? s->position0 : 0)) *
                   (1 + s->cv * gauss(&rng));
        fprintf(f,
                "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"%s\","
                "\"run\":%u,\"attempt\":1,\"variant\":%u,\"arm\":%u,\"slot\":%u,"
                "\"cycle\":%u,\"point\":0,\"point_label\":\"\",\"status\":\"ok\","
                "\"window\":\"wall\",\"time_s\":%.12g,\"wall_s\":%.12g,\"cputime_s\":%.12g,"
                "\"iters\":20,\"agg\":1,\"bytes\":0,\"flops\":0,\"bus_factor\":1,"
                "\"rates\":{\"bytes_per_s\":null,\"flops_per_s\":null,"
                "\"busbw_bytes_per_s\":null},\"check\":{\"checked\":1,\"wrong\":0}}\n",
                s->name, b, arm, arm, j, c, t, t, t);
      }
    fprintf(f,
            "{\"schema\":\"rigor.result/1\",\"type\":\"run\",\"experiment\":\"%s\","
            "\"run\":%u,\"attempt\":1,\"block\":%u,\"position\":0,\"variant\":0,"
            "\"label\":\"v0\",\"status\":\"ok\",\"reason\":null,\"elapsed_s\":0.5,"
            "\"flags\":[],\"arms\":[",
            s->name, b, b);
    for (uint32_t l = 0; l < k; l++)
      fprintf(f, "%s%u", l ? "," : "", l);
    fputs("]}\n", f);
  }
  fclose(f);
}
