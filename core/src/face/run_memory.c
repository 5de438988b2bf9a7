#include "run_memory.h"

#include <inttypes.h>
#include <string.h>

/* "1.5 GiB", "256 MiB": what a person reads, to a tenth where it matters. */
static void fmt_bytes(char *buf, size_t len, uint64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = (double)bytes;
  size_t u = 0;
  while (v >= 1024 && u + 1 < sizeof units / sizeof *units)
    v /= 1024, u++;
  snprintf(buf, len, v < 10 && u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

/* Bytes of the variants one run hosts: cell c's arms together, or variant c alone. */
static uint64_t held_by(const rigor_experiment_t *e, uint32_t c) {
  const rigor_interleave_t *il = &e->interleave;
  if (!il->axis) return e->variants[c].footprint;
  uint64_t sum = 0;
  for (uint32_t a = 0; a < il->n_arms; a++) {
    uint64_t f = e->variants[il->arms[(size_t)c * il->n_arms + a]].footprint;
    if (f == 0) return 0;
    sum += f;
  }
  return sum;
}

uint64_t rigor_run_memory(const rigor_experiment_t *e) {
  uint32_t n = e->interleave.axis ? e->interleave.n_cells : e->n_variants;
  uint64_t most = 0;
  for (uint32_t c = 0; c < n; c++) {
    uint64_t held = held_by(e, c);
    if (held == 0) return 0;
    if (held > most) most = held;
  }
  return most;
}

uint64_t rigor_memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  uint64_t kib = 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1) break;
  fclose(f);
  return kib * 1024;
}

void rigor_run_memory_print(FILE *out, const rigor_experiment_t *e) {
  uint64_t held = rigor_run_memory(e);
  if (held == 0) return;
  char size[32];
  fmt_bytes(size, sizeof size, held);
  fprintf(out, "  memory: a run holds up to %s at once%s", size,
          e->interleave.axis ? " (every arm's instance together)" : "");
  uint64_t available = rigor_memory_available();
  if (available && held > available) {
    char avail[32];
    fmt_bytes(avail, sizeof avail, available);
    fprintf(out, ", more than the %s available: rigor run refuses it", avail);
  }
  fprintf(out, "\n");
}

bool rigor_run_memory_fits(const rigor_experiment_t *e, char *err, size_t errlen) {
  uint64_t held = rigor_run_memory(e), available = rigor_memory_available();
  if (held == 0 || available == 0 || held <= available) return true;
  char size[32], avail[32];
  fmt_bytes(size, sizeof size, held);
  fmt_bytes(avail, sizeof avail, available);
  snprintf(err, errlen,
           "experiment %s: a run would hold %s at once%s, more than the %s this machine has "
           "available (MemAvailable); lower the arrays%s",
           e->name, size, e->interleave.axis ? " (its arms together)" : "", avail,
           e->interleave.axis ? ", or run the levels across processes (order: {interleave: none})"
                              : "");
  return false;
}
