#include "reader.h"
#include "file_kind.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "record_rules.h"
#include "rigor/plugin.h"
#include "sample_dom.h"
#include "sample_json.h"
#include "sample_record.h"

/* Lines are read into one buffer, grown only for a line longer than it. */
#define READ_CHUNK ((size_t)1 << 20)

typedef struct line_source {
  int fd;
  char *buf; /* cap bytes, then RIGOR_SAMPLE_DOM_PADDING more */
  size_t cap, begin, end;
  bool eof;
} line_source_t;

/* The next line, without its newline, in [*line, *line + *len); *has_newline false for a last
 * line the file ends without. 1 for a line, 0 at the end, RIGOR_EIO or RIGOR_ENOMEM. */
static int next_line(line_source_t *src, const char **line, size_t *len, bool *has_newline) {
  for (size_t scanned = 0;;) {
    char *start = src->buf + src->begin;
    char *nl = memchr(start + scanned, '\n', src->end - src->begin - scanned);
    if (nl) {
      *line = start;
      *len = (size_t)(nl - start);
      *has_newline = true;
      src->begin += *len + 1;
      return 1;
    }
    scanned = src->end - src->begin;
    if (src->eof) {
      if (scanned == 0) return 0;
      *line = start;
      *len = scanned;
      *has_newline = false;
      src->begin = src->end;
      return 1;
    }
    if (src->begin > 0) {
      memmove(src->buf, start, scanned);
      src->begin = 0;
      src->end = scanned;
    }
    if (src->end == src->cap) {
      size_t cap = 2 * src->cap;
      char *buf = realloc(src->buf, cap + RIGOR_SAMPLE_DOM_PADDING);
      if (!buf) return RIGOR_ENOMEM;
      memset(buf + src->cap, 0, cap - src->cap + RIGOR_SAMPLE_DOM_PADDING);
      src->buf = buf;
      src->cap = cap;
    }
    ssize_t got;
    do
      got = read(src->fd, src->buf + src->end, src->cap - src->end);
    while (got < 0 && errno == EINTR);
    if (got < 0) return RIGOR_EIO;
    if (got == 0) src->eof = true;
    src->end += (size_t)got;
  }
}

typedef struct reader {
  const char *path;
  const rigor_results_callbacks_t *cb;
  rigor_sample_dom_t *dom;
  rigor_sample_scratch_t scratch;
  char *err;
  size_t errlen;
} reader_t;

/* A first line that is no JSON but reads like YAML (a comment, a document start, `key:`): the
 * user gave the experiment file where its results belong. */
static bool looks_like_experiment(const char *path, const char *text, size_t len) {
  size_t n = strlen(path);
  if ((n > 5 && strcmp(path + n - 5, ".yaml") == 0) || (n > 4 && strcmp(path + n - 4, ".yml") == 0))
    return true;
  if (len && text[0] == '#') return true;
  if (len >= 3 && memcmp(text, "---", 3) == 0) return true;
  size_t i = 0;
  while (i < len && (isalnum((unsigned char)text[i]) || text[i] == '_' || text[i] == '-'))
    i++;
  return i > 0 && i < len && text[i] == ':';
}

/* The way every line took before the fast path, and the one every doubtful line still takes:
 * jansson's parse, so its message (with line:col) is the error. */
/* A time that is not positive cannot be a measurement, whatever status the writer gave it: such
 * a sample is invalid (counted with the invalid ones), never a figure (a negative median would
 * read as stable, its ratios as -200%). */
static int deliver_sample(const rigor_results_callbacks_t *cb, rigor_sample_t *s) {
  if (!cb->sample) return 0;
  if (s->status == RIGOR_SAMPLE_OK && s->time_s <= 0) s->status = RIGOR_SAMPLE_INVALID;
  return cb->sample(cb->arg, s);
}

/* Whether memory for parsing a line of n bytes can be had: its string buffer grows by doubling
 * and the parsed value holds a copy, about three times the line (four, to leave a margin).
 * Asked before a long line is parsed, because jansson 2.14 crashes on some failed allocations
 * inside its lexer instead of returning an error. */
static bool room_to_parse(size_t n) {
  if (n > SIZE_MAX / 5) return false;
  void *p = malloc(4 * n + (1u << 20));
  free(p);
  return p != NULL;
}

static int read_with_jansson(reader_t *r, const char *text, size_t len, size_t start, size_t line,
                             bool last_cut, bool *truncated) {
  json_error_t jerr;
  if (len - start > (1u << 20) && !room_to_parse(len - start)) {
    snprintf(r->err, r->errlen, "%s:%zu: out of memory reading this line (%zu bytes)", r->path,
             line, len - start);
    return RIGOR_ENOMEM;
  }
  json_t *rec = json_loadb(text + start, len - start, 0, &jerr);
  if (!rec) {
    if (last_cut) {
      if (truncated) *truncated = true;
      return 0;
    }
    if (json_error_code(&jerr) == json_error_out_of_memory) {
      /* jansson reports a failed allocation as a parse error at the spot it gave up. */
      snprintf(r->err, r->errlen, "%s:%zu: out of memory reading this line (%zu bytes)", r->path,
               line, len - start);
      return RIGOR_ENOMEM;
    }
    if (line == 1 && looks_like_experiment(r->path, text + start, len - start))
      snprintf(r->err, r->errlen,
               "%s: this is an experiment file; run it first (rigor run %s) and give the results "
               "file it writes",
               r->path, r->path);
    else if (line == 1 && len - start >= 3 && memcmp(text + start, "\xEF\xBB\xBF", 3) == 0)
      /* An editor's byte order mark is invisible where the parser would quote it. */
      snprintf(r->err, r->errlen,
               "%s:1:1: starts with a UTF-8 byte order mark (bytes EF BB BF), which a results "
               "file does not hold; remove it (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)",
               r->path);
    else
      snprintf(r->err, r->errlen, "%s:%zu:%d: %s", r->path, line,
               jerr.column > 0 ? jerr.column + (int)start : 1 + (int)start, jerr.text);
    return RIGOR_EINVAL;
  }
  const char *type = NULL;
  int rc = rigor__record_check(rec, r->path, line, &type, r->err, r->errlen);
  if (rc == 0 && strcmp(type, "sample") == 0 && !r->cb->whole_records) {
    rigor_sample_t s;
    rc = rigor__sample_from_json(rec, &r->scratch, &s);
    s.line = line;
    if (rc)
      snprintf(r->err, r->errlen, "%s:%zu: %s", r->path, line, rigor_strerror(rc));
    else
      rc = deliver_sample(r->cb, &s);
  } else if (rc == 0 && r->cb->record) {
    rc = r->cb->record(r->cb->arg, rec, type, line);
  }
  json_decref(rec);
  return rc;
}

static int read_lines(reader_t *r, line_source_t *src, bool *truncated) {
  const char *text;
  size_t len, line = 0;
  bool has_newline;
  int got;
  while ((got = next_line(src, &text, &len, &has_newline)) == 1) {
    line++;
    size_t start = 0;
    while (start < len && (text[start] == ' ' || text[start] == '\t' || text[start] == '\r'))
      start++;
    if (start == len) continue;
    rigor_sample_t s;
    int rc =
        r->cb->whole_records ? 0 : rigor__sample_dom_parse(r->dom, text + start, len - start, &s);
    if (rc < 0) {
      snprintf(r->err, r->errlen, "%s:%zu: %s", r->path, line, rigor_strerror(rc));
      return rc;
    }
    if (rc == 0) {
      rc = read_with_jansson(r, text, len, start, line, !has_newline, truncated);
    } else {
      s.line = line;
      rc = deliver_sample(r->cb, &s);
    }
    if (rc) return rc;
  }
  if (got == RIGOR_EIO)
    snprintf(r->err, r->errlen, "%s: read error: %s", r->path, strerror(errno));
  else if (got == RIGOR_ENOMEM)
    snprintf(r->err, r->errlen, "%s: %s", r->path, rigor_strerror(got));
  return got;
}

int rigor_results_read(const char *path, const rigor_results_callbacks_t *cb, bool *truncated,
                       char *err, size_t errlen) {
  if (!path || !cb) return RIGOR_EINVAL;
  if (truncated) *truncated = false;
  /* Never blocks on a FIFO; anything but a regular file is refused before it is read. */
  line_source_t src = {.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), .cap = READ_CHUNK};
  if (src.fd < 0) {
    int e = errno;
    snprintf(err, errlen, "%s: cannot open results file: %s", path, strerror(e));
    return e == ENOENT ? RIGOR_ENOENT : RIGOR_EIO;
  }
  struct stat st;
  if (fstat(src.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: is %s, not a results file", path, rigor_file_kind(st.st_mode));
    close(src.fd);
    return RIGOR_EINVAL;
  }
  fcntl(src.fd, F_SETFL, fcntl(src.fd, F_GETFL) & ~O_NONBLOCK);
  reader_t r = {.path = path, .cb = cb, .err = err, .errlen = errlen};
  /* Zeroed padding: simdjson may read it, and nothing then reads uninitialised bytes. */
  src.buf = calloc(1, src.cap + RIGOR_SAMPLE_DOM_PADDING);
  r.dom = rigor__sample_dom_new();
  int rc = src.buf && r.dom ? read_lines(&r, &src, truncated) : RIGOR_ENOMEM;
  if (!src.buf || !r.dom) snprintf(err, errlen, "%s: %s", path, rigor_strerror(rc));
  rigor__sample_dom_free(r.dom);
  rigor__sample_scratch_free(&r.scratch);
  free(src.buf);
  close(src.fd);
  return rc;
}

json_t *rigor_sample_point_params(const rigor_sample_t *s) {
  if (s->from_json)
    return json_incref(
        json_object_get(s->from_json, rigor_sample_members[RIGOR_SAMPLE_MEMBER_POINT_PARAMS].key));
  return s->from_dom ? rigor__sample_dom_point_params(s->from_dom) : NULL;
}

static int keep_record(void *arg, json_t *rec, const char *type, size_t line) {
  (void)type, (void)line;
  return json_array_append(arg, rec) ? RIGOR_ENOMEM : 0;
}

int rigor_results_load(const char *path, json_t **records, bool *truncated, char *err,
                       size_t errlen) {
  *records = json_array();
  rigor_results_callbacks_t cb = {.record = keep_record, .arg = *records, .whole_records = true};
  int rc = *records ? rigor_results_read(path, &cb, truncated, err, errlen) : RIGOR_ENOMEM;
  if (rc) {
    json_decref(*records);
    *records = NULL;
  }
  return rc;
}

int rigor_results_feed(const json_t *records, const rigor_results_callbacks_t *cb,
                       const char *source, char *err, size_t errlen) {
  reader_t r = {.path = source, .cb = cb, .err = err, .errlen = errlen};
  size_t i;
  json_t *rec;
  int rc = 0;
  json_array_foreach(records, i, rec) {
    const char *type = NULL;
    if ((rc = rigor__record_check(rec, source, i + 1, &type, err, errlen))) break;
    if (strcmp(type, "sample") == 0 && !cb->whole_records) {
      rigor_sample_t s;
      if ((rc = rigor__sample_from_json(rec, &r.scratch, &s))) {
        snprintf(err, errlen, "%s:%zu: %s", source, i + 1, rigor_strerror(rc));
        break;
      }
      s.line = i + 1;
      rc = deliver_sample(cb, &s);
    } else if (cb->record) {
      rc = cb->record(cb->arg, rec, type, i + 1);
    }
    if (rc) break;
  }
  rigor__sample_scratch_free(&r.scratch);
  return rc;
}
