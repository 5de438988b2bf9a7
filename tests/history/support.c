#include "support.h"
#include "test_files.h"

#include <jansson.h>

#include <libpq-fe.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define PG_STATE RIGOR_BINARY_DIR "/tests/pg"

void hx_defaults(hx_spec_t *s) {
  memset(s, 0, sizeof *s);
  s->name = "hist";
  s->hash = "a1b2c3d4e5f6";
  s->created = "2024-01-01T00:00:00.000Z";
  s->point = "kernels=triad";
  s->runs = 3;
  s->cycles = 5;
  s->level = 1e-3;
  s->sd_run = 0.02;
  s->sd_cycle = 0.005;
  s->seed = 1;
  s->cv_max = 0.05;
}

static double gauss(rigor_rng_t *rng) {
  double u1 = rigor_rng_uniform(rng), u2 = rigor_rng_uniform(rng);
  return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
}

static void sample(FILE *f, const hx_spec_t *s, uint32_t run, uint32_t attempt, uint32_t cycle,
                   double t) {
  fprintf(f,
          "{\"schema\":\"rigor.result/1\",\"type\":\"sample\",\"experiment\":\"%s\",\"run\":%u,"
          "\"attempt\":%u,\"variant\":0,\"cycle\":%u,\"point\":0,\"point_label\":\"%s\","
          "\"status\":\"ok\",\"window\":\"wall\",\"time_s\":%.12g,\"wall_s\":%.12g,\"iters\":10,"
          "\"agg\":1,\"bytes\":1000000,\"rates\":{\"bytes_per_s\":%.12g}",
          s->name, run, attempt, cycle, s->point, t, t, 1e6 / t);
  if (s->metric || s->flag) {
    fputs(",\"metrics\":{", f);
    if (s->metric) fprintf(f, "\"%s\":%.12g", s->metric, s->metric_value / t * 1e-3);
    if (s->flag) fprintf(f, "%s\"%s\":1", s->metric ? "," : "", s->flag);
    fputs("}", f);
  }
  fputs("}\n", f);
}

size_t hx_write(const char *path, const hx_spec_t *s) {
  FILE *f = fopen(path, "w");
  if (!f) abort();
  rigor_rng_t rng;
  rigor_rng_seed(&rng, s->seed);
  size_t lines = 1;
  fprintf(f,
          "{\"schema\":\"rigor.result/1\",\"type\":\"experiment\",\"experiment\":\"%s\","
          "\"name\":\"%s\",\"hash\":\"%s\",\"created\":\"%s\",\"config\":{\"gate\":{\"cv_max\":"
          "%g,\"min_samples\":5%s%s}},\"variants\":[{\"index\":0,\"label\":\"default\",\"axes\":"
          "{},\"settings\":{\"plugin\":\"null\",\"params\":{\"n\":1},\"timing\":{\"iters\":10},"
          "\"environment\":{},\"gate\":{\"cv_max\":%g,\"min_samples\":5%s%s}}}],\"schedule\":{"
          "\"design\":\"sequential\",\"seed\":0,\"replicates\":%u,\"blocks\":[",
          s->name, s->name, s->hash, s->created, s->cv_max, s->gate_extra ? "," : "",
          s->gate_extra ? s->gate_extra : "", s->cv_max, s->gate_extra ? "," : "",
          s->gate_extra ? s->gate_extra : "", s->runs);
  for (uint32_t r = 0; r < s->runs; r++)
    fprintf(f, "%s[0]", r ? "," : "");
  json_t *unit = json_string(s->unit ? s->unit : "items/s");
  char *unit_text = json_dumps(unit, JSON_ENCODE_ANY);
  fprintf(f,
          "]},\"plugin\":{\"name\":\"null\",\"version\":\"1.0\",\"metrics\":[{\"name\":"
          "\"throughput\",\"unit\":%s,\"better\":\"higher\"}",
          unit_text);
  if (s->flag) fprintf(f, ",{\"name\":\"%s\",\"unit\":\"bool\",\"better\":\"higher\"}", s->flag);
  fprintf(f, "]},\"identity\":{\"cpu\":{\"model\":\"Test CPU\"}},\"rigor\":{\"version\":"
             "\"0\",\"git\":\"x\"}}\n");
  free(unit_text);
  json_decref(unit);
  if (s->orphan_attempt) {
    for (uint32_t c = 0; c < s->cycles; c++, lines++)
      sample(f, s, 0, 0, c, s->level);
  }
  for (uint32_t r = 0; r < s->runs; r++) {
    double run_level = s->level * (1 + s->sd_run * gauss(&rng));
    for (uint32_t c = 0; c < s->cycles; c++, lines++)
      sample(f, s, r, 1, c, run_level * (1 + s->sd_cycle * gauss(&rng)));
    fprintf(f,
            "{\"schema\":\"rigor.result/1\",\"type\":\"run\",\"experiment\":\"%s\",\"run\":%u,"
            "\"attempt\":1,\"block\":%u,\"position\":0,\"variant\":0,\"label\":\"default\","
            "\"status\":\"ok\",\"reason\":null,\"start\":\"%s/%u\",\"end\":\"%s/%u\","
            "\"elapsed_s\":0.5,\"flags\":[],\"plugin_identity\":{}",
            s->name, r, r, s->created, r, s->created, r);
    if (s->node)
      fprintf(f,
              ",\"slurm\":{\"job\":1,\"step\":%u,\"node\":\"%s\",\"nodes\":1,\"tasks\":1,"
              "\"rank\":0}",
              r, s->node);
    fputs("}\n", f);
    lines++;
  }
  fclose(f);
  return lines;
}

const char *hx_backend_name(hx_backend_t b) {
  return b == HX_POSTGRESQL ? "postgresql" : "sqlite";
}

hx_backend_t hx_backend_from_args(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "postgresql") != 0) return HX_SQLITE;
  char *missing = hx_slurp(PG_STATE "/missing");
  if (missing) {
    printf("PostgreSQL half skipped: %s", missing);
    fflush(stdout);
    free(missing);
    exit(77);
  }
  char *url = hx_slurp(PG_STATE "/url");
  if (!url) {
    fprintf(stderr, "no PostgreSQL cluster: the pg_cluster_start fixture did not run or failed "
                    "(see its output)\n");
    exit(1);
  }
  free(url);
  return HX_POSTGRESQL;
}

static void pg_exec(const char *url, const char *sql) {
  PGconn *c = PQconnectdb(url);
  if (PQstatus(c) != CONNECTION_OK) {
    fprintf(stderr, "%s: %s\n", url, PQerrorMessage(c));
    abort();
  }
  PGresult *r = PQexec(c, sql);
  if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
    fprintf(stderr, "%s: %s\n", sql, PQresultErrorMessage(r));
    abort();
  }
  PQclear(r);
  PQfinish(c);
}

void hx_fresh_db(hx_backend_t b, const char *name, char *url, size_t len) {
  if (b == HX_SQLITE) {
    snprintf(url, len, "%s/%s.db", hx_scratch("db"), name);
    remove(url);
    return;
  }
  char *admin = hx_slurp(PG_STATE "/url");
  if (!admin) abort();
  admin[strcspn(admin, "\n")] = '\0';
  char sql[256];
  snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", name);
  pg_exec(admin, sql);
  snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
  pg_exec(admin, sql);
  const char *q = strchr(admin, '?');
  snprintf(url, len, "postgresql:///%s%s", name, q ? q : "");
  free(admin);
}

void hx_sql(hx_backend_t b, const char *url, const char *sql) {
  if (b == HX_POSTGRESQL) {
    pg_exec(url, sql);
    return;
  }
  sqlite3 *db = NULL;
  char *msg = NULL;
  if (sqlite3_open(url, &db) != SQLITE_OK || sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    fprintf(stderr, "%s: %s\n", sql, msg ? msg : sqlite3_errmsg(db));
    abort();
  }
  sqlite3_close(db);
}

const char *hx_scratch(const char *test) {
  static char dir[512];
  snprintf(dir, sizeof dir, RIGOR_BINARY_DIR "/tests/history-%s", test);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  if (system(cmd) != 0) abort();
  return dir;
}

char *hx_slurp(const char *path) {
  return test_slurp(path, NULL);
}
