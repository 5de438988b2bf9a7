/* The table an nccl-tests binary prints (src/util.cu's layout): '#' lines with its version, the
 * collective, the settings ("# nThread 1 nGpus 8 minBytes 8 ... iters: 20 agg iters: 1
 * validation: 1 graph: 0"), one "#  Rank" line per rank, a header naming the columns, then one
 * row per size (size count type redop root, then time algbw busbw #wrong out of place and again
 * in place), and a summary ("# Out of bounds values", "# Avg bus bandwidth"). Columns are found
 * by the header's names, so the per-iteration columns of -I and the timestamp of -S read too.
 * NCCL's own log lines (NCCL INFO, NCCL WARN) may be interleaved and are skipped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_nccl_tests.h"
#include "json_util.h"
#include "rigor/plugin.h"

enum { MAX_COLUMNS = 48 };

/* The table's columns, as its header names them. */
typedef struct layout {
  bool known;
  size_t n_prefix; /* size count type redop root */
  char prefix[8][16];
  size_t group; /* columns per measurement: 4, or 8 with -I */
  char names[16][16];
  bool timestamp; /* -S: a date and a time end each row */
} layout_t;

typedef struct reader {
  rigor_import_ctx_t *c;
  nccl_section_t **out;
  size_t *n_out;
  nccl_section_t *s; /* the section being read, NULL before the first */
  layout_t lay;
  size_t line;
} reader_t;

static int split(char *text, char **tok, int max) {
  int n = 0;
  for (char *p = strtok(text, " \t\r\n"); p && n < max; p = strtok(NULL, " \t\r\n"))
    tok[n++] = p;
  return n;
}

static nccl_section_t *new_section(reader_t *r) {
  nccl_section_t *all = realloc(*r->out, (*r->n_out + 1) * sizeof *all);
  if (!all) return NULL;
  *r->out = all;
  nccl_section_t *s = &all[(*r->n_out)++];
  memset(s, 0, sizeof *s);
  s->path = r->c->path;
  s->line = r->line;
  s->settings = json_object();
  s->identity = json_pack("{s:[]}", "devices");
  s->run_detail = json_pack("{s:[]}", "ranks");
  r->s = s;
  r->lay.known = false;
  return s;
}

/* A line that starts a binary's output starts a section unless the current one is still at
 * its start. */
static nccl_section_t *section_for_start(reader_t *r, bool fresh_if) {
  if (!r->s || fresh_if) return new_section(r);
  return r->s;
}

static bool started(const nccl_section_t *s) {
  return s && (s->n_rows > 0 || json_object_size(s->settings) > 0);
}

static void set_int(json_t *o, const char *key, long long v) {
  json_object_set_new(o, key, json_integer(v));
}

/* "# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20
 * agg iters: 1 validation: 1 graph: 0 unalign: 0", under the names of -J's "config". */
static int read_settings(reader_t *r, const char *line) {
  json_t *o = r->s->settings;
  long long v;
  char kind[16];
  const char *p;
  static const struct {
    const char *text, *key;
  } simple[] = {{"nThread ", "nthreads"},
                {"nGpus ", "ngpus"},
                {"minBytes ", "minimum_bytes"},
                {"maxBytes ", "maximum_bytes"},
                {"warmup iters: ", "warmup_iters"},
                {"agg iters: ", "aggregated_iterations"},
                {"validation: ", "validation"},
                {"graph: ", "graph"},
                {"unalign: ", "unalign"}};
  for (size_t i = 0; i < sizeof simple / sizeof *simple; i++)
    if ((p = strstr(line, simple[i].text)) && sscanf(p + strlen(simple[i].text), "%lld", &v) == 1)
      set_int(o, simple[i].key, v);
  if ((p = strstr(line, "step: ")) && sscanf(p + 6, "%lld(%15[^)])", &v, kind) == 2)
    set_int(o, strcmp(kind, "factor") == 0 ? "step_factor" : "step_bytes", v);
  /* "iters: " also ends "warmup iters: " and "agg iters: ". */
  for (p = strstr(line, "iters: "); p; p = strstr(p + 1, "iters: ")) {
    bool warmup = p - line >= 7 && strncmp(p - 7, "warmup ", 7) == 0;
    bool agg = p - line >= 4 && strncmp(p - 4, "agg ", 4) == 0;
    if (!warmup && !agg && sscanf(p + 7, "%lld", &v) == 1) set_int(o, "iterations", v);
  }
  if (!json_object_get(o, "iterations") || !json_object_get(o, "minimum_bytes"))
    return rigor_import_fail_line(r->c, r->line, "a settings line without iters or minBytes");
  return 0;
}

/* "#  Rank  0 Group  0 Pid 12345 on node01 device  0 [0000:1b:00] NVIDIA H100"; older versions
 * print no Group. */
static int read_rank(reader_t *r, const char *line) {
  int rank, group = -1, pid, device;
  char host[256], bus[128], name[512] = "";
  int n = sscanf(line, "# Rank %d Group %d Pid %d on %255s device %d [%127[^]]] %511[^\n]", &rank,
                 &group, &pid, host, &device, bus, name);
  if (n < 6) {
    group = -1;
    n = sscanf(line, "# Rank %d Pid %d on %255s device %d [%127[^]]] %511[^\n]", &rank, &pid, host,
               &device, bus, name);
    if (n < 5) return rigor_import_fail_line(r->c, r->line, "a Rank line that does not read");
  }
  json_t *dev = json_pack("{s:i, s:s, s:i, s:s, s:s}", "rank", rank, "host", host, "device", device,
                          "bus_id", bus, "name", name);
  if (group >= 0) json_object_set_new(dev, "group", json_integer(group));
  json_array_append(json_object_get(r->s->identity, "devices"), dev);
  json_t *with_pid = json_deep_copy(dev);
  json_object_set_new(with_pid, "pid", json_integer(pid));
  json_array_append_new(json_object_get(r->s->run_detail, "ranks"), with_pid);
  json_decref(dev);
  if (!json_object_get(r->s->identity, "host"))
    json_object_set_new(r->s->identity, "host", json_string(host));
  return 0;
}

static bool is_time_column(const char *t) {
  return strcmp(t, "time") == 0 || strcmp(t, "cputime") == 0;
}

static int read_header(reader_t *r, char *line) {
  char *tok[MAX_COLUMNS];
  int n = split(line + 1, tok, MAX_COLUMNS);
  layout_t *l = &r->lay;
  memset(l, 0, sizeof *l);
  int first = -1, second = -1;
  for (int i = 0; i < n; i++)
    if (is_time_column(tok[i])) {
      if (first < 0)
        first = i;
      else if (second < 0)
        second = i;
    }
  if (first < 1 || first > 8 || strcmp(tok[0], "size") != 0)
    return rigor_import_fail_line(r->c, r->line, "a table header without size and time columns");
  l->n_prefix = (size_t)first;
  for (int i = 0; i < first; i++)
    snprintf(l->prefix[i], sizeof l->prefix[i], "%s", tok[i]);
  l->timestamp = strcmp(tok[n - 1], "timestamp") == 0;
  int end = l->timestamp ? n - 1 : n;
  l->group = (size_t)(second > 0 ? second - first : end - first);
  if (l->group < 3 || l->group > 16 || (second > 0 && end - second != (int)l->group))
    return rigor_import_fail_line(r->c, r->line, "a table header whose two halves differ");
  for (size_t i = 0; i < l->group; i++)
    snprintf(l->names[i], sizeof l->names[i], "%s", tok[first + (int)i]);
  r->s->cputime = strcmp(tok[first], "cputime") == 0;
  l->known = true;
  return 0;
}

/* A number of the table; "N/A" is none. */
static bool table_number(const char *t, double *v) {
  if (strcmp(t, "N/A") == 0) {
    *v = NAN;
    return true;
  }
  char *end;
  *v = strtod(t, &end);
  return end != t && *end == '\0';
}

static int read_measure(reader_t *r, char **tok, nccl_measure_t *m) {
  const layout_t *l = &r->lay;
  double it[4] = {NAN, NAN, NAN, NAN};
  bool has_iter = false;
  m->present = true;
  m->time_us = m->algbw_gbs = m->busbw_gbs = m->wrong = NAN;
  for (size_t i = 0; i < l->group; i++) {
    double v;
    if (!table_number(tok[i], &v))
      return rigor_import_fail_line(r->c, r->line, "'%s' in column %s is not a number", tok[i],
                                    l->names[i]);
    const char *name = l->names[i];
    if (is_time_column(name))
      m->time_us = v;
    else if (strcmp(name, "algbw") == 0)
      m->algbw_gbs = v;
    else if (strcmp(name, "busbw") == 0)
      m->busbw_gbs = v;
    else if (strcmp(name, "#wrong") == 0)
      m->wrong = v;
    else if (strncmp(name, "i_", 2) == 0) {
      static const char *const iter_names[] = {"i_min", "i_max", "i_p99", "i_cv%"};
      for (size_t k = 0; k < 4; k++)
        if (strcmp(name, iter_names[k]) == 0) it[k] = v, has_iter = true;
    }
  }
  if (has_iter)
    m->iterations = json_pack("{s:o, s:o, s:o, s:o}", "min", rigor_json_real_or_null(it[0] * 1e-6),
                              "max", rigor_json_real_or_null(it[1] * 1e-6), "p99",
                              rigor_json_real_or_null(it[2] * 1e-6), "cv",
                              rigor_json_real_or_null(it[3] / 100));
  return 0;
}

static int read_row(reader_t *r, char *line) {
  if (!r->s || !r->lay.known)
    return rigor_import_fail_line(r->c, r->line, "a result row before the table header");
  char *tok[MAX_COLUMNS];
  int n = split(line, tok, MAX_COLUMNS);
  const layout_t *l = &r->lay;
  int stamp = l->timestamp ? 2 : 0;
  bool both = (size_t)n == l->n_prefix + 2 * l->group + (size_t)stamp;
  bool in_place_only = (size_t)n == l->n_prefix + l->group + (size_t)stamp;
  if (!both && !in_place_only)
    return rigor_import_fail_line(r->c, r->line, "a row of %d columns where the header has %zu", n,
                                  l->n_prefix + 2 * l->group + (size_t)stamp);
  nccl_row_t *row = nccl_section_row(r->s);
  if (!row) return rigor_import_fail_line(r->c, r->line, "out of memory");
  row->where = r->line;
  row->count = NAN;
  for (size_t i = 0; i < l->n_prefix; i++) {
    const char *name = l->prefix[i];
    double v;
    if (strcmp(name, "size") == 0 || strcmp(name, "count") == 0) {
      if (!table_number(tok[i], &v) || !(v >= 0) || v != floor(v))
        return rigor_import_fail_line(r->c, r->line, "'%s' in column %s is not a count", tok[i],
                                      name);
      *(strcmp(name, "size") == 0 ? &row->size : &row->count) = v;
    } else if (strcmp(name, "type") == 0) {
      snprintf(row->type, sizeof row->type, "%s", tok[i]);
    } else if (strcmp(name, "redop") == 0) {
      snprintf(row->redop, sizeof row->redop, "%s", tok[i]);
    } else if (strcmp(name, "root") == 0) {
      snprintf(row->root, sizeof row->root, "%s", tok[i]);
    }
  }
  char **at = tok + l->n_prefix;
  if (both && read_measure(r, at, &row->m[NCCL_OUT_OF_PLACE])) return r->c->rc;
  return read_measure(r, both ? at + l->group : at, &row->m[NCCL_IN_PLACE]);
}

static int read_comment(reader_t *r, char *line) {
  const char *body = line + 1 + strspn(line + 1, " ");
  char name[128];
  int a, b;
  if (strncmp(body, "nccl-tests version ", 19) == 0) {
    nccl_section_t *s = section_for_start(r, started(r->s));
    if (!s) return rigor_import_fail_line(r->c, r->line, "out of memory");
    sscanf(body + 19, "%63s", s->version);
    const char *lib = strstr(body, "nccl-library=");
    if (lib && sscanf(lib + 13, "%d", &a) == 1) set_int(s->identity, "nccl_version", a);
    const char *hdr = strstr(body, "nccl-headers=");
    if (hdr && sscanf(hdr + 13, "%d", &b) == 1) set_int(s->identity, "nccl_headers", b);
    return 0;
  }
  if (sscanf(body, "Collective test starting: %127s", name) == 1) {
    nccl_section_t *s = section_for_start(r, started(r->s) || (r->s && r->s->program[0]));
    if (!s) return rigor_import_fail_line(r->c, r->line, "out of memory");
    snprintf(s->program, sizeof s->program, "%s", name);
    return 0;
  }
  if (strncmp(body, "nThread ", 8) == 0) {
    if (!section_for_start(r, r->s && json_object_get(r->s->settings, "iterations")))
      return rigor_import_fail_line(r->c, r->line, "out of memory");
    return read_settings(r, body);
  }
  if (!r->s) return 0;
  if (strncmp(body, "Rank ", 5) == 0) return read_rank(r, line);
  if (strncmp(body, "Blocking Enabled: ", 18) == 0) {
    char text[256];
    snprintf(text, sizeof text, "%s", body + 18);
    text[strcspn(text, "\r\n")] = '\0';
    for (size_t n = strlen(text); n && text[n - 1] == ' ';)
      text[--n] = '\0';
    json_object_set_new(r->s->settings, "blocking_collectives", json_string(text));
    return 0;
  }
  if (strncmp(body, "Per-Iteration Report", 20) == 0) {
    json_object_set_new(r->s->settings, "per_iter_timing", json_true());
    const char *skip = strstr(body, "skips first ");
    if (skip && sscanf(skip + 12, "%d", &a) == 1) set_int(r->s->settings, "per_iter_skip", a);
    return 0;
  }
  if (strncmp(body, "Parallel Init Enabled", 21) == 0) {
    json_object_set_new(r->s->settings, "parallel_init", json_true());
    return 0;
  }
  if (strncmp(body, "size ", 5) == 0 && strstr(body, "count")) return read_header(r, line);
  if (sscanf(body, "Out of bounds values : %d", &a) == 1) {
    json_object_set_new(r->s->run_detail, "out_of_bounds", json_integer(a));
    r->s->complete = true;
    return 0;
  }
  double bw;
  if (sscanf(body, "Avg bus bandwidth : %lf", &bw) == 1)
    json_object_set_new(r->s->run_detail, "avg_bus_bandwidth", json_real(bw));
  return 0;
}

int nccl_read_text(rigor_import_ctx_t *c, const char *text, nccl_section_t **out, size_t *n_out) {
  reader_t r = {.c = c, .out = out, .n_out = n_out};
  size_t first_section = *n_out;
  for (const char *p = text; *p && !c->rc;) {
    size_t len = strcspn(p, "\n");
    char *line = strndup(p, len);
    if (!line) return rigor_import_fail(c, NULL, "out of memory");
    r.line++;
    /* The section pointer moves when the array grows. */
    if (r.s) r.s = &(*out)[*n_out - 1];
    const char *start = line + strspn(line, " \t");
    if (*start == '#')
      read_comment(&r, (char *)start);
    else if (*start && *start != '\r' && !strstr(start, "NCCL INFO") && !strstr(start, "NCCL WARN"))
      read_row(&r, line);
    free(line);
    p += len + (p[len] == '\n');
  }
  if (!c->rc && *n_out == first_section)
    return rigor_import_fail(c, NULL, "no nccl-tests output: no \"# nThread\" settings line");
  for (size_t i = first_section; !c->rc && i < *n_out; i++)
    if ((*out)[i].n_rows == 0)
      rigor_import_fail_line(c, (*out)[i].line, "a run of the binary without result rows");
  return c->rc;
}
