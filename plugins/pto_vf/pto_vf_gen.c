#include "pto_vf_gen.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#define MAX_IN_FLIGHT 256

typedef struct gen {
  FILE *starts, *ends;
  const vf_gen_opts_t *o;
  vf_gen_truth_t *t;
  uint64_t rng;
  uint64_t next_id;
  uint64_t scale;
  uint64_t bytes;
  int failed;
  /* VF completions not yet written, so that instr_log stays in completion order. */
  struct pending_end {
    uint64_t cycle, id, exec, real, addr, instr_num;
    int layout;
  } in_flight[MAX_IN_FLIGHT];
  size_t n_in_flight;
} gen_t;

static uint64_t next_rand(gen_t *g) {
  uint64_t z = (g->rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void emit(gen_t *g, FILE *f, uint64_t cycle, uint64_t pc, const char *pipe, uint32_t binary,
                 uint64_t id, const char *mnemonic, const char *operands) {
  int n;
  if (g->o->with_ids)
    n = fprintf(f,
                "[info] [%08" PRIu64 "] (PC: 0x%08" PRIx64
                ") %-8s : (Binary: 0x%08x) (ID: %06" PRIu64 ") %s  %s\n",
                cycle, pc, pipe, binary, id, mnemonic, operands);
  else
    n = fprintf(f, "[info] [%08" PRIu64 "] (PC: 0x%08" PRIx64 ") %-8s : (Binary: 0x%08x) %s  %s\n",
                cycle, pc, pipe, binary, mnemonic, operands);
  if (n < 0)
    g->failed = 1;
  else
    g->bytes += (uint64_t)n;
}

static void write_vf_end(gen_t *g, const struct pending_end *e) {
  char ops[160];
  if (e->layout == VF_GEN_LAYOUT_FULL)
    snprintf(ops, sizeof ops,
             "addr: 0x%08" PRIx64 ",instr_num: 0x%" PRIx64 ", vf_execute_time: %" PRIu64
             ", vf_real_execute_time: %" PRIu64,
             e->addr, e->instr_num, e->exec, e->real);
  else
    snprintf(ops, sizeof ops, ", vf_execute_time: %" PRIu64 ", vf_real_execute_time: %" PRIu64,
             e->exec, e->real);
  emit(g, g->ends, e->cycle, 0x10d0d104, "PUSHQ", 0x15400000, e->id, "VF", ops);
  g->t->class_count[VF_CLASS_OTHER]++;
  if (e->layout == VF_GEN_LAYOUT_FULL) g->t->instr_num_sum += e->instr_num;
}

/* Writes every pending VF end completing at or before `cycle`, earliest first. */
static void flush_ends(gen_t *g, uint64_t cycle) {
  for (;;) {
    size_t best = g->n_in_flight;
    for (size_t i = 0; i < g->n_in_flight; i++)
      if (g->in_flight[i].cycle <= cycle &&
          (best == g->n_in_flight || g->in_flight[i].cycle < g->in_flight[best].cycle))
        best = i;
    if (best == g->n_in_flight) return;
    write_vf_end(g, &g->in_flight[best]);
    g->in_flight[best] = g->in_flight[--g->n_in_flight];
  }
}

static const struct noise {
  const char *pipe;
  const char *mnemonic;
  const char *operands;
  vf_class_t cls;
} NOISE[] = {
    {"SCALAR", "ADD_IMM", "dtype:S64, XD:X30=0x204258, XN:X29=0x203fa0, IMM:0x2b8, ",
     VF_CLASS_OTHER},
    {"MTE2", "DMA_MOV", "Src:OUT, Dst:UB, addr: 0x00001000, XD:X0=0,", VF_CLASS_LOAD},
    {"VEC", "VADD", "dtype:F32, VD:V0, VN:V1, VM:V2,", VF_CLASS_COMPUTE},
    {"MTE3", "DMA_MOV", "Src:UB, Dst:OUT, addr: 0x00009000, XD:X0=0,", VF_CLASS_STORE},
    {"SCALAR", "WAIT_FLAG", "PIPE:MTE2, TRIGGER PIPE:SCALAR, FLAG ID:0,", VF_CLASS_SYNC},
    {"VECTOR", "MOVEMASK", "XN:X0=0xffffffffffffffff, Id:415;", VF_CLASS_OTHER},
};

static void write_noise(gen_t *g, uint64_t *cycle) {
  const struct noise *n = &NOISE[next_rand(g) % (sizeof NOISE / sizeof NOISE[0])];
  uint64_t id = g->next_id++;
  uint64_t pc = 0x11bbe000 + 4 * (id % 1024);
  uint64_t end = *cycle + g->scale * (1 + next_rand(g) % 4);
  emit(g, g->starts, *cycle, pc, n->pipe, 0x083dd2b8, id, n->mnemonic, n->operands);
  flush_ends(g, end);
  emit(g, g->ends, end, pc, n->pipe, 0x083dd2b8, id, n->mnemonic, n->operands);
  g->t->class_count[n->cls]++;
  *cycle += g->scale * (1 + next_rand(g) % 3);
}

static const char *const MALFORMED[] = {
    "[info] [0000",
    "[info] [00001234] (PC: 0x10d0d104) PUSHQ    : (Binary: 0x15400000) (ID: 12a) VF  ,",
    "simulator banner: not an instruction",
    "[info] [00001234] (PC: 0x10d0d104) PUSHQ    : (Binary: 0x15400000) VF  vf_execute_time: x",
};

static void write_malformed(gen_t *g, uint64_t k) {
  const char *line = MALFORMED[k % (sizeof MALFORMED / sizeof MALFORMED[0])];
  if (fprintf(g->starts, "%s\n", line) < 0 || fprintf(g->ends, "%s\n", line) < 0) g->failed = 1;
  g->bytes += 2 * (strlen(line) + 1);
  g->t->malformed += 2;
}

static void write_vf(gen_t *g, uint64_t *cycle) {
  vf_gen_truth_t *t = g->t;
  if (g->n_in_flight == MAX_IN_FLIGHT) flush_ends(g, UINT64_MAX);
  uint64_t push_id = g->next_id++;
  emit(g, g->starts, *cycle, 0x10d0d100, "PUSHQ", 0x15000000, push_id, "PUSH_PB", "");
  flush_ends(g, *cycle + g->scale);
  emit(g, g->ends, *cycle + g->scale, 0x10d0d100, "PUSHQ", 0x15000000, push_id, "PUSH_PB", "");
  t->class_count[VF_CLASS_OTHER]++;
  *cycle += g->scale;

  struct pending_end e;
  e.id = g->next_id++;
  e.exec = g->scale * (50 + next_rand(g) % 500);
  e.real = e.exec - next_rand(g) % (e.exec / 4 + 1);
  e.addr = 0x10d0d200 + 0x100 * (e.id % 16);
  e.instr_num = 1 + next_rand(g) % 255;
  e.layout = g->o->layout == VF_GEN_LAYOUT_MIXED ? (int)(next_rand(g) % 2) : (int)g->o->layout;
  e.cycle = *cycle + e.exec;
  char ops[96];
  snprintf(ops, sizeof ops, "addr: 0x%08" PRIx64 ",instr_num: 0x%" PRIx64 ",", e.addr, e.instr_num);
  emit(g, g->starts, *cycle, 0x10d0d104, "PUSHQ", 0x15400000, e.id, "VF", ops);
  if (e.layout != VF_GEN_LAYOUT_FULL) t->instr_num_sum += e.instr_num;
  if (t->vf_count == 0 || *cycle < t->first_start) t->first_start = *cycle;
  if (e.cycle > t->last_end) t->last_end = e.cycle;
  t->vf_count++;
  t->exec_sum += e.exec;
  t->real_sum += e.real;
  t->exec_min = e.exec < t->exec_min ? e.exec : t->exec_min;
  t->exec_max = e.exec > t->exec_max ? e.exec : t->exec_max;
  t->real_min = e.real < t->real_min ? e.real : t->real_min;
  t->real_max = e.real > t->real_max ? e.real : t->real_max;
  g->in_flight[g->n_in_flight++] = e;
  *cycle += g->scale * (10 + next_rand(g) % 200);
}

int vf_gen_write(FILE *starts, FILE *ends, const vf_gen_opts_t *opts, vf_gen_truth_t *truth) {
  gen_t g = {.starts = starts, .ends = ends, .o = opts, .t = truth};
  memset(truth, 0, sizeof *truth);
  truth->exec_min = truth->real_min = UINT64_MAX;
  g.rng = opts->seed;
  g.next_id = 1;
  g.scale = opts->cycle_scale ? opts->cycle_scale : 1;
  uint64_t cycle = opts->start_cycle;
  for (uint64_t k = 0; opts->target_bytes ? g.bytes < opts->target_bytes : k < opts->vf_count;
       k++) {
    for (uint32_t i = 0; i < opts->noise_per_vf / 2; i++)
      write_noise(&g, &cycle);
    write_vf(&g, &cycle);
    for (uint32_t i = opts->noise_per_vf / 2; i < opts->noise_per_vf; i++)
      write_noise(&g, &cycle);
    if (opts->malformed_every && (k + 1) % opts->malformed_every == 0)
      write_malformed(&g, k / opts->malformed_every);
    if (g.failed) break;
  }
  flush_ends(&g, UINT64_MAX);
  truth->total = truth->vf_count ? truth->last_end - truth->first_start : 0;
  truth->bytes = g.bytes;
  if (truth->vf_count == 0) truth->exec_min = truth->real_min = 0;
  return g.failed ? -EIO : 0;
}
