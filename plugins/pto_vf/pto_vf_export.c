#include "pto_vf_export.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pto_vf_scan.h"

typedef struct agg_row {
  char unit[48];
  char buffer[64];
  vf_class_t cls;
  uint64_t count, busy, first_start, last_end;
  int has_start, has_end;
} agg_row_t;

typedef struct exporter {
  const vf_addrs_t *addrs;
  const char *unit;
  FILE *csv, *json;
  int json_rows;
  agg_row_t *agg;
  size_t n_agg;
  vf_pair_t by_id, by_pc;
  int failed;
} exporter_t;

static void event_from(const vf_line_t *l, vf_event_t *ev) {
  memset(ev, 0, sizeof *ev);
  ev->cycle = l->cycle;
  ev->pc = l->pc;
  ev->id = l->id;
  ev->has_id = l->has_id;
  ev->pipe = (uint16_t)l->pipe;
  if (l->vf_fields & VF_FIELD_ADDR) {
    ev->addr = l->vf_addr;
    ev->has_addr = 1;
  } else if (vf_operand_hex(l->operands, "addr", &ev->addr)) {
    ev->has_addr = 1;
  }
  size_t n = l->mnemonic.len < sizeof ev->opcode - 1 ? l->mnemonic.len : sizeof ev->opcode - 1;
  memcpy(ev->opcode, l->mnemonic.ptr, n);
  ev->opcode[n] = '\0';
}

static agg_row_t *agg_find(exporter_t *x, const char *buffer, vf_class_t cls) {
  for (size_t i = 0; i < x->n_agg; i++)
    if (x->agg[i].cls == cls && strcmp(x->agg[i].unit, x->unit) == 0 &&
        strcmp(x->agg[i].buffer, buffer) == 0)
      return &x->agg[i];
  agg_row_t *rows = realloc(x->agg, (x->n_agg + 1) * sizeof *rows);
  if (!rows) return NULL;
  x->agg = rows;
  agg_row_t *r = &rows[x->n_agg++];
  memset(r, 0, sizeof *r);
  snprintf(r->unit, sizeof r->unit, "%s", x->unit);
  snprintf(r->buffer, sizeof r->buffer, "%s", buffer);
  r->cls = cls;
  return r;
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

/* One timeline row; start or end may be missing (NULL) for unmatched events. */
static void write_row(exporter_t *x, const vf_event_t *start, const vf_event_t *end) {
  const vf_event_t *ev = end ? end : start;
  vf_span_t opcode = {ev->opcode, (uint32_t)strlen(ev->opcode)};
  vf_class_t cls = vf_classify((vf_pipe_t)ev->pipe, opcode);
  const vf_event_t *with_addr = start && start->has_addr ? start
                                : end && end->has_addr   ? end
                                                         : NULL;
  const char *buffer = with_addr && x->addrs ? vf_addrs_lookup(x->addrs, with_addr->addr) : NULL;
  char start_text[24] = "", end_text[24] = "", id_text[24] = "";
  if (start) snprintf(start_text, sizeof start_text, "%" PRIu64, start->cycle);
  if (end) snprintf(end_text, sizeof end_text, "%" PRIu64, end->cycle);
  if (ev->has_id) snprintf(id_text, sizeof id_text, "%" PRIu64, ev->id);
  const char *pipe = vf_pipe_name((vf_pipe_t)ev->pipe);
  if (x->csv)
    fprintf(x->csv, "%s,%s,%s,%s,%s,%s,%s,0x%" PRIx64 ",%s\n", x->unit, start_text, end_text, pipe,
            ev->opcode, vf_class_name(cls), buffer ? buffer : "", ev->pc, id_text);
  if (x->json) {
    fprintf(x->json, "%s\n  {\"core\": ", x->json_rows++ ? "," : "");
    json_string(x->json, x->unit);
    fprintf(x->json, ", \"start\": %s, \"end\": %s, \"pipe\": \"%s\", \"opcode\": ",
            start ? start_text : "null", end ? end_text : "null", pipe);
    json_string(x->json, ev->opcode);
    fprintf(x->json, ", \"class\": \"%s\", \"buffer\": ", vf_class_name(cls));
    if (buffer)
      json_string(x->json, buffer);
    else
      fputs("null", x->json);
    fprintf(x->json, ", \"pc\": \"0x%" PRIx64 "\", \"id\": %s}", ev->pc,
            ev->has_id ? id_text : "null");
  }
  agg_row_t *r = agg_find(x, buffer ? buffer : "", cls);
  if (!r) {
    x->failed = -ENOMEM;
    return;
  }
  r->count++;
  if (start && end && end->cycle >= start->cycle) r->busy += end->cycle - start->cycle;
  if (start && (!r->has_start || start->cycle < r->first_start)) {
    r->first_start = start->cycle;
    r->has_start = 1;
  }
  if (end && (!r->has_end || end->cycle > r->last_end)) {
    r->last_end = end->cycle;
    r->has_end = 1;
  }
}

static int on_record(void *arg, vf_side_t side, const vf_line_t *l) {
  exporter_t *x = arg;
  vf_event_t ev, other;
  event_from(l, &ev);
  int rc = l->has_id ? vf_pair_offer(&x->by_id, side, l->id, &ev, &other)
                     : vf_pair_offer(&x->by_pc, side, l->pc, &ev, &other);
  if (rc == 1)
    write_row(x, side == VF_SIDE_START ? &ev : &other, side == VF_SIDE_END ? &ev : &other);
  return rc < 0 ? rc : x->failed;
}

static void unmatched_start(void *arg, const vf_event_t *ev) {
  write_row(arg, ev, NULL);
}

static void unmatched_end(void *arg, const vf_event_t *ev) {
  write_row(arg, NULL, ev);
}

static int scan_unit(exporter_t *x, const vf_unit_files_t *u, char *err, size_t errlen) {
  int fds[2] = {open(u->starts, O_RDONLY), open(u->ends, O_RDONLY)};
  vf_reader_t readers[2] = {0};
  int rc = 0;
  for (int i = 0; i < 2 && rc == 0; i++) {
    if (fds[i] < 0) {
      rc = -errno;
      snprintf(err, errlen, "%s: %s", i ? u->ends : u->starts, strerror(errno));
    } else {
      rc = vf_reader_from_fd(&readers[i], fds[i]);
    }
  }
  if (rc == 0) {
    vf_summary_t sum;
    vf_summary_init(&sum);
    x->unit = u->unit;
    vf_pair_init(&x->by_id);
    vf_pair_init(&x->by_pc);
    rc = vf_scan_core(&readers[0], &readers[1], 0, &sum, on_record, x);
    vf_pair_drain(&x->by_id, VF_SIDE_START, unmatched_start, x);
    vf_pair_drain(&x->by_id, VF_SIDE_END, unmatched_end, x);
    vf_pair_drain(&x->by_pc, VF_SIDE_START, unmatched_start, x);
    vf_pair_drain(&x->by_pc, VF_SIDE_END, unmatched_end, x);
    vf_pair_free(&x->by_id);
    vf_pair_free(&x->by_pc);
    if (rc) snprintf(err, errlen, "timeline of %s: %s", u->unit, strerror(-rc));
  }
  for (int i = 0; i < 2; i++) {
    vf_reader_release(&readers[i]);
    if (fds[i] >= 0) close(fds[i]);
  }
  return rc;
}

static FILE *open_out(const char *path, char *err, size_t errlen) {
  if (!path || !*path) return NULL;
  FILE *f = fopen(path, "w");
  if (!f) snprintf(err, errlen, "%s: %s", path, strerror(errno));
  return f;
}

static int close_out(FILE *f, const char *path, int rc, char *err, size_t errlen) {
  if (!f) return rc;
  if ((ferror(f) | fclose(f)) != 0 && rc == 0) {
    snprintf(err, errlen, "%s: write failed", path);
    return -EIO;
  }
  return rc;
}

static void write_agg(FILE *f, const exporter_t *x) {
  fputs("core,buffer,class,count,busy_cycles,first_start,last_end\n", f);
  for (size_t i = 0; i < x->n_agg; i++) {
    const agg_row_t *r = &x->agg[i];
    fprintf(f, "%s,%s,%s,%" PRIu64 ",%" PRIu64 ",", r->unit, r->buffer, vf_class_name(r->cls),
            r->count, r->busy);
    if (r->has_start) fprintf(f, "%" PRIu64, r->first_start);
    fputc(',', f);
    if (r->has_end) fprintf(f, "%" PRIu64, r->last_end);
    fputc('\n', f);
  }
}

int vf_export_write(const vf_trace_set_t *set, const vf_addrs_t *addrs,
                    const vf_export_paths_t *paths, char *err, size_t errlen) {
  exporter_t x = {.addrs = addrs};
  int rc = 0;
  FILE *agg = NULL;
  x.csv = open_out(paths->csv, err, errlen);
  if (paths->csv && *paths->csv && !x.csv) return -EIO;
  x.json = open_out(paths->json, err, errlen);
  if (paths->json && *paths->json && !x.json) {
    rc = -EIO;
    goto done;
  }
  agg = open_out(paths->agg, err, errlen);
  if (paths->agg && *paths->agg && !agg) {
    rc = -EIO;
    goto done;
  }
  if (x.csv) fputs("core,start,end,pipe,opcode,class,buffer,pc,id\n", x.csv);
  if (x.json) fputs("[", x.json);
  for (size_t i = 0; i < set->n && rc == 0; i++)
    rc = scan_unit(&x, &set->units[i], err, errlen);
  if (x.json) fputs("\n]\n", x.json);
  if (agg && rc == 0) write_agg(agg, &x);
done:
  rc = close_out(x.csv, paths->csv, rc, err, errlen);
  rc = close_out(x.json, paths->json, rc, err, errlen);
  rc = close_out(agg, paths->agg, rc, err, errlen);
  free(x.agg);
  return rc;
}
