/* Writes a synthetic trace directory with a known VF total and prints the expected answers. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pto_vf_gen.h"

static void usage(const char *prog) {
  fprintf(stderr,
          "usage: %s DIR [--vfs N | --bytes SIZE] [--no-ids] [--noise N] [--malformed-every N]\n"
          "          [--layout full|times|mixed] [--seed N] [--start CYCLE] [--scale N]\n"
          "          [--unit core0.veccore0]\n"
          "Writes DIR/UNIT.instr_popped_log.dump and DIR/UNIT.instr_log.dump.\n"
          "SIZE takes K, M or G suffixes (binary). Options take --name VALUE or --name=VALUE.\n",
          prog);
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s) return -1;
  uint64_t mult = 1;
  if (*end == 'K')
    mult = 1ull << 10, end++;
  else if (*end == 'M')
    mult = 1ull << 20, end++;
  else if (*end == 'G')
    mult = 1ull << 30, end++;
  if (*end != '\0') return -1;
  *out = (uint64_t)v * mult;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-') {
    usage(argv[0]);
    return 2;
  }
  const char *dir = argv[1];
  const char *unit = "core0.veccore0";
  vf_gen_opts_t o = {
      .vf_count = 100, .with_ids = true, .noise_per_vf = 8, .seed = 1, .start_cycle = 1000};
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint64_t n = 0;
    /* --name=value as well as --name value, as rigor's own options. */
    char name[32];
    const char *eq = strchr(a, '=');
    bool joined = strncmp(a, "--", 2) == 0 && eq && (size_t)(eq - a) < sizeof name;
    if (joined) {
      snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
      a = name;
      v = eq + 1;
    }
    if (strcmp(a, "--no-ids") == 0) {
      o.with_ids = false;
      continue;
    }
    if (!v || (strcmp(a, "--layout") != 0 && strcmp(a, "--unit") != 0 && parse_u64(v, &n) != 0)) {
      usage(argv[0]);
      return 2;
    }
    if (!joined) i++;
    if (strcmp(a, "--vfs") == 0)
      o.vf_count = n;
    else if (strcmp(a, "--bytes") == 0)
      o.target_bytes = n;
    else if (strcmp(a, "--noise") == 0)
      o.noise_per_vf = (uint32_t)n;
    else if (strcmp(a, "--malformed-every") == 0)
      o.malformed_every = (uint32_t)n;
    else if (strcmp(a, "--seed") == 0)
      o.seed = n;
    else if (strcmp(a, "--start") == 0)
      o.start_cycle = n;
    else if (strcmp(a, "--scale") == 0)
      o.cycle_scale = n;
    else if (strcmp(a, "--unit") == 0)
      unit = v;
    else if (strcmp(a, "--layout") == 0 && strcmp(v, "full") == 0)
      o.layout = VF_GEN_LAYOUT_FULL;
    else if (strcmp(a, "--layout") == 0 && strcmp(v, "times") == 0)
      o.layout = VF_GEN_LAYOUT_TIMES;
    else if (strcmp(a, "--layout") == 0 && strcmp(v, "mixed") == 0)
      o.layout = VF_GEN_LAYOUT_MIXED;
    else {
      usage(argv[0]);
      return 2;
    }
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    perror(dir);
    return 1;
  }
  char starts_path[4096], ends_path[4096];
  snprintf(starts_path, sizeof starts_path, "%s/%s.instr_popped_log.dump", dir, unit);
  snprintf(ends_path, sizeof ends_path, "%s/%s.instr_log.dump", dir, unit);
  FILE *starts = fopen(starts_path, "w");
  FILE *ends = fopen(ends_path, "w");
  if (!starts || !ends) {
    perror("open");
    return 1;
  }
  vf_gen_truth_t t;
  int rc = vf_gen_write(starts, ends, &o, &t);
  if (fclose(starts) != 0 || fclose(ends) != 0 || rc != 0) {
    fprintf(stderr, "write failed\n");
    return 1;
  }
  printf("vf_total_cycles=%" PRIu64 "\nfirst_vf_start=%" PRIu64 "\nlast_vf_end=%" PRIu64
         "\nvf_count=%" PRIu64 "\nvf_exec_sum=%" PRIu64 "\nmalformed=%" PRIu64 "\nbytes=%" PRIu64
         "\n",
         t.total, t.first_start, t.last_end, t.vf_count, t.exec_sum, t.malformed, t.bytes);
  return 0;
}
