#include "pto_vf_scan.h"

#include <string.h>

void vf_summary_init(vf_summary_t *s) {
  memset(s, 0, sizeof *s);
  s->exec_min = UINT64_MAX;
  s->real_min = UINT64_MAX;
}

static void add_stat(uint64_t v, uint64_t *n, uint64_t *sum, uint64_t *min, uint64_t *max) {
  (*n)++;
  *sum += v;
  if (v < *min) *min = v;
  if (v > *max) *max = v;
}

void vf_summary_merge(vf_summary_t *into, const vf_summary_t *from) {
  into->lines += from->lines;
  into->bytes += from->bytes;
  into->malformed += from->malformed;
  for (int k = 0; k < VF_LINE_KIND_COUNT; k++)
    into->malformed_by_kind[k] += from->malformed_by_kind[k];
  for (uint32_t i = 0; i < from->n_issues && into->n_issues < VF_SCAN_MAX_ISSUES; i++)
    into->issues[into->n_issues++] = from->issues[i];
  into->vf_starts += from->vf_starts;
  into->vf_ends += from->vf_ends;
  into->matched += from->matched;
  into->unmatched_starts += from->unmatched_starts;
  into->unmatched_ends += from->unmatched_ends;
  if (from->has_first_start &&
      (!into->has_first_start || from->first_vf_start < into->first_vf_start)) {
    into->first_vf_start = from->first_vf_start;
    into->has_first_start = true;
  }
  if (from->has_last_end && (!into->has_last_end || from->last_vf_end > into->last_vf_end)) {
    into->last_vf_end = from->last_vf_end;
    into->has_last_end = true;
  }
  into->exec_n += from->exec_n;
  into->exec_sum += from->exec_sum;
  into->exec_min = from->exec_min < into->exec_min ? from->exec_min : into->exec_min;
  into->exec_max = from->exec_max > into->exec_max ? from->exec_max : into->exec_max;
  into->real_n += from->real_n;
  into->real_sum += from->real_sum;
  into->real_min = from->real_min < into->real_min ? from->real_min : into->real_min;
  into->real_max = from->real_max > into->real_max ? from->real_max : into->real_max;
  into->instr_num_n += from->instr_num_n;
  into->instr_num_sum += from->instr_num_sum;
  for (int c = 0; c < VF_CLASS_COUNT; c++)
    into->class_count[c] += from->class_count[c];
  if (from->peak_waiting > into->peak_waiting) into->peak_waiting = from->peak_waiting;
}

typedef struct stream {
  vf_reader_t *reader;
  uint32_t file;
  /* Without a record callback only VF records take part in the merge by cycle (every other line
   * is counted where it stands), and the parse computes only what the counts need. */
  bool vfs_only;
  bool classes; /* count the classes of this stream's records (the ends) */
  vf_line_t line;
  bool have;
} stream_t;

static void note_malformed(vf_summary_t *sum, uint32_t file, uint64_t line_no,
                           vf_line_status_t kind) {
  sum->malformed++;
  sum->malformed_by_kind[kind]++;
  if (sum->n_issues < VF_SCAN_MAX_ISSUES)
    sum->issues[sum->n_issues++] = (vf_issue_t){file, line_no, kind};
}

/* Advances to the next well-formed record. Returns 0 or -errno. */
static int advance(stream_t *s, vf_summary_t *sum) {
  const char *text;
  size_t len;
  for (;;) {
    int rc = vf_reader_next(s->reader, &text, &len);
    if (rc < 0) return rc;
    if (rc == VF_READ_EOF) {
      s->have = false;
      return 0;
    }
    if (rc == VF_READ_TOO_LONG) {
      sum->lines++;
      note_malformed(sum, s->file, s->reader->line_no, VF_LINE_TOO_LONG);
      continue;
    }
    vf_line_status_t st = vf_line_parse_only(
        text, len, s->vfs_only ? 0 : VF_NEED_VALUES | VF_NEED_MNEMONIC, &s->line);
    if (st == VF_LINE_BLANK) continue;
    sum->lines++;
    if (st != VF_LINE_OK) {
      note_malformed(sum, s->file, s->reader->line_no, st);
      continue;
    }
    if (s->classes) sum->class_count[vf_classify(s->line.pipe, s->line.mnemonic)]++;
    if (s->vfs_only && !s->line.is_vf) continue;
    s->have = true;
    return 0;
  }
}

static void event_from_line(const vf_line_t *l, vf_event_t *ev) {
  ev->cycle = l->cycle;
  ev->pc = l->pc;
  ev->id = l->id;
  ev->has_id = l->has_id;
  ev->fields = l->vf_fields;
  ev->exec = l->vf_execute_time;
  ev->real_exec = l->vf_real_execute_time;
  ev->instr_num = l->vf_instr_num;
}

static void on_pair(vf_summary_t *sum, const vf_event_t *start, const vf_event_t *end) {
  sum->matched++;
  if (!(end->fields & VF_FIELD_EXEC) && end->cycle >= start->cycle)
    add_stat(end->cycle - start->cycle, &sum->exec_n, &sum->exec_sum, &sum->exec_min,
             &sum->exec_max);
  if (!(end->fields & VF_FIELD_INSTR_NUM) && (start->fields & VF_FIELD_INSTR_NUM)) {
    sum->instr_num_n++;
    sum->instr_num_sum += start->instr_num;
  }
}

/* IDs pair exactly; lines without an ID pair in order among themselves. */
static int offer(vf_pair_t *by_id, vf_pair_t *by_order, vf_summary_t *sum, vf_side_t side,
                 const vf_event_t *ev) {
  vf_event_t other;
  int rc = ev->has_id ? vf_pair_offer(by_id, side, ev->id, ev, &other)
                      : vf_pair_offer(by_order, side, 0, ev, &other);
  if (rc == 1) {
    if (side == VF_SIDE_START)
      on_pair(sum, ev, &other);
    else
      on_pair(sum, &other, ev);
    return 0;
  }
  return rc;
}

static int take_start(vf_pair_t *by_id, vf_pair_t *by_order, vf_summary_t *sum,
                      const vf_line_t *l) {
  if (!l->is_vf) return 0;
  sum->vf_starts++;
  if (!sum->has_first_start || l->cycle < sum->first_vf_start) {
    sum->first_vf_start = l->cycle;
    sum->has_first_start = true;
  }
  vf_event_t ev;
  event_from_line(l, &ev);
  return offer(by_id, by_order, sum, VF_SIDE_START, &ev);
}

static int take_end(vf_pair_t *by_id, vf_pair_t *by_order, vf_summary_t *sum, const vf_line_t *l) {
  if (!l->is_vf) return 0;
  sum->vf_ends++;
  if (!sum->has_last_end || l->cycle > sum->last_vf_end) {
    sum->last_vf_end = l->cycle;
    sum->has_last_end = true;
  }
  if (l->vf_fields & VF_FIELD_EXEC)
    add_stat(l->vf_execute_time, &sum->exec_n, &sum->exec_sum, &sum->exec_min, &sum->exec_max);
  if (l->vf_fields & VF_FIELD_REAL_EXEC)
    add_stat(l->vf_real_execute_time, &sum->real_n, &sum->real_sum, &sum->real_min, &sum->real_max);
  if (l->vf_fields & VF_FIELD_INSTR_NUM) {
    sum->instr_num_n++;
    sum->instr_num_sum += l->vf_instr_num;
  }
  vf_event_t ev;
  event_from_line(l, &ev);
  return offer(by_id, by_order, sum, VF_SIDE_END, &ev);
}

static size_t waiting(const vf_pair_t *a, const vf_pair_t *b) {
  return a->peak + b->peak;
}

int vf_scan_core(vf_reader_t *starts, vf_reader_t *ends, uint32_t file_base, vf_summary_t *sum,
                 vf_record_fn fn, void *arg) {
  stream_t s = {.reader = starts, .file = file_base, .vfs_only = !fn};
  stream_t e = {.reader = ends, .file = file_base + 1, .vfs_only = !fn, .classes = true};
  vf_pair_t by_id, by_order;
  vf_pair_init(&by_id);
  vf_pair_init(&by_order);
  int rc = advance(&s, sum);
  if (rc == 0) rc = advance(&e, sum);
  while (rc == 0 && (s.have || e.have)) {
    if (s.have && (!e.have || s.line.cycle <= e.line.cycle)) {
      rc = take_start(&by_id, &by_order, sum, &s.line);
      if (rc == 0 && fn) rc = fn(arg, VF_SIDE_START, &s.line);
      if (rc == 0) rc = advance(&s, sum);
    } else {
      rc = take_end(&by_id, &by_order, sum, &e.line);
      if (rc == 0 && fn) rc = fn(arg, VF_SIDE_END, &e.line);
      if (rc == 0) rc = advance(&e, sum);
    }
  }
  sum->unmatched_starts +=
      vf_pair_waiting(&by_id, VF_SIDE_START) + vf_pair_waiting(&by_order, VF_SIDE_START);
  sum->unmatched_ends +=
      vf_pair_waiting(&by_id, VF_SIDE_END) + vf_pair_waiting(&by_order, VF_SIDE_END);
  size_t peak = waiting(&by_id, &by_order);
  if (peak > sum->peak_waiting) sum->peak_waiting = peak;
  sum->bytes += starts->bytes + ends->bytes;
  vf_pair_free(&by_id);
  vf_pair_free(&by_order);
  return rc;
}
