#include "pto_vf_golden.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void vf_golden_init(vf_golden_t *g) {
  memset(g, 0, sizeof *g);
  g->status = VF_GOLDEN_UNKNOWN;
  g->max_abs_err = g->max_rel_err = g->atol = g->rtol = NAN;
}

static int parse_status(const char *v, vf_golden_status_t *out) {
  if (strcasecmp(v, "PASS") == 0)
    *out = VF_GOLDEN_PASS;
  else if (strcasecmp(v, "FAIL") == 0)
    *out = VF_GOLDEN_FAIL;
  else
    return -1;
  return 0;
}

static int parse_double(const char *v, double *out) {
  char *end;
  errno = 0;
  double d = strtod(v, &end);
  if (errno || end == v || *end != '\0') return -1;
  *out = d;
  return 0;
}

static int parse_count(const char *v, uint64_t *out) {
  char *end;
  errno = 0;
  if (*v == '-') return -1;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || end == v || *end != '\0') return -1;
  *out = n;
  return 0;
}

/* Sets one field from its text; returns 0, -1 for a bad value, -2 for an unknown key. */
static int set_field(vf_golden_t *g, const char *key, const char *value) {
  if (strcmp(key, "status") == 0) return parse_status(value, &g->status);
  if (strcmp(key, "mismatches") == 0) {
    g->has_mismatches = true;
    return parse_count(value, &g->mismatches);
  }
  if (strcmp(key, "max_abs_err") == 0) return parse_double(value, &g->max_abs_err);
  if (strcmp(key, "max_rel_err") == 0) return parse_double(value, &g->max_rel_err);
  if (strcmp(key, "atol") == 0) return parse_double(value, &g->atol);
  if (strcmp(key, "rtol") == 0) return parse_double(value, &g->rtol);
  if (strcmp(key, "build_flags") == 0) {
    g->has_build_flags = true;
    return snprintf(g->build_flags, sizeof g->build_flags, "%s", value) < (int)sizeof g->build_flags
               ? 0
               : -1;
  }
  if (strcmp(key, "workload") == 0) {
    g->has_workload = true;
    return snprintf(g->workload, sizeof g->workload, "%s", value) < (int)sizeof g->workload ? 0
                                                                                            : -1;
  }
  return -2;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

static int parse_key_values(char *text, const char *file, vf_golden_t *g, char *err,
                            size_t errlen) {
  unsigned line = 0;
  for (char *p = text; p && *p;) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    line++;
    char *s = trim(p);
    p = nl ? nl + 1 : NULL;
    if (*s == '\0' || *s == '#') continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(err, errlen, "%s:%u: expected key = value", file, line);
      return -EINVAL;
    }
    *eq = '\0';
    char *key = trim(s);
    char *value = trim(eq + 1);
    int rc = set_field(g, key, value);
    if (rc == -2) {
      snprintf(err, errlen,
               "%s:%u: unknown key '%s' (expected status, mismatches, max_abs_err, max_rel_err, "
               "atol, rtol, build_flags or workload)",
               file, line, key);
      return -EINVAL;
    }
    if (rc) {
      snprintf(err, errlen, "%s:%u: bad value for %s: '%s'", file, line, key, value);
      return -EINVAL;
    }
  }
  return 0;
}

static int parse_json(const char *text, size_t len, const char *file, vf_golden_t *g, char *err,
                      size_t errlen) {
  json_error_t je;
  json_t *root = json_loadb(text, len, 0, &je);
  if (!root || !json_is_object(root)) {
    snprintf(err, errlen, "%s:%d: %s", file, root ? 1 : je.line,
             root ? "expected a JSON object" : je.text);
    json_decref(root);
    return -EINVAL;
  }
  const char *key;
  json_t *v;
  int rc = 0;
  json_object_foreach(root, key, v) {
    char buf[512];
    bool scalar = true;
    if (json_is_string(v))
      snprintf(buf, sizeof buf, "%s", json_string_value(v));
    else if (json_is_integer(v))
      snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
      snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
    else if (json_is_boolean(v) && strcmp(key, "status") == 0)
      snprintf(buf, sizeof buf, "%s", json_is_true(v) ? "PASS" : "FAIL");
    else
      scalar = false;
    int r = scalar ? set_field(g, key, buf) : -1;
    if (r == -2) {
      snprintf(err, errlen, "%s: unknown key '%s'", file, key);
      rc = -EINVAL;
      break;
    }
    if (r) {
      snprintf(err, errlen, "%s: bad value for %s", file, key);
      rc = -EINVAL;
      break;
    }
  }
  json_decref(root);
  return rc;
}

int vf_golden_parse(const char *text, size_t len, const char *file, vf_golden_t *g, char *err,
                    size_t errlen) {
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
    i++;
  if (i < len && text[i] == '{') return parse_json(text, len, file, g, err, errlen);
  char *copy = malloc(len + 1);
  if (!copy) return -ENOMEM;
  memcpy(copy, text, len);
  copy[len] = '\0';
  int rc = parse_key_values(copy, file, g, err, errlen);
  free(copy);
  return rc;
}

int vf_golden_load(const char *path, vf_golden_t *g, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "golden result %s: %s", path, strerror(errno));
    return -ENOENT;
  }
  char buf[16384];
  size_t len = fread(buf, 1, sizeof buf, f);
  int too_big = !feof(f);
  fclose(f);
  if (too_big) {
    snprintf(err, errlen, "golden result %s: larger than %zu bytes", path, sizeof buf);
    return -EINVAL;
  }
  return vf_golden_parse(buf, len, path, g, err, errlen);
}

static int compile(const char *name, const char *pattern, regex_t *re, char *err, size_t errlen) {
  int rc = regcomp(re, pattern, REG_EXTENDED | REG_NEWLINE);
  if (rc) {
    char msg[128];
    regerror(rc, re, msg, sizeof msg);
    snprintf(err, errlen, "%s: bad regular expression '%s': %s", name, pattern, msg);
    return -EINVAL;
  }
  if (re->re_nsub < 1) {
    regfree(re);
    snprintf(err, errlen, "%s: '%s' needs one capture group holding the value", name, pattern);
    return -EINVAL;
  }
  return 0;
}

typedef struct named_pattern {
  const char *param;
  const char *field;
  const char *pattern;
} named_pattern_t;

static void list_patterns(const vf_golden_patterns_t *p, named_pattern_t out[4]) {
  out[0] = (named_pattern_t){"status_regex", "status", p->status};
  out[1] = (named_pattern_t){"mismatches_regex", "mismatches", p->mismatches};
  out[2] = (named_pattern_t){"max_abs_err_regex", "max_abs_err", p->max_abs_err};
  out[3] = (named_pattern_t){"max_rel_err_regex", "max_rel_err", p->max_rel_err};
}

int vf_golden_patterns_check(const vf_golden_patterns_t *p, char *err, size_t errlen) {
  named_pattern_t list[4];
  list_patterns(p, list);
  for (int i = 0; i < 4; i++) {
    if (!list[i].pattern || !*list[i].pattern) continue;
    regex_t re;
    if (compile(list[i].param, list[i].pattern, &re, err, errlen)) return -EINVAL;
    regfree(&re);
  }
  return 0;
}

int vf_golden_from_output(const char *output, const vf_golden_patterns_t *p, vf_golden_t *g,
                          char *err, size_t errlen) {
  named_pattern_t list[4];
  list_patterns(p, list);
  for (int i = 0; i < 4; i++) {
    if (!list[i].pattern || !*list[i].pattern) continue;
    regex_t re;
    if (compile(list[i].param, list[i].pattern, &re, err, errlen)) return -EINVAL;
    regmatch_t m[2];
    int found = regexec(&re, output, 2, m, 0) == 0 && m[1].rm_so >= 0;
    regfree(&re);
    if (!found) continue;
    char value[128];
    snprintf(value, sizeof value, "%.*s", (int)(m[1].rm_eo - m[1].rm_so), output + m[1].rm_so);
    if (set_field(g, list[i].field, value) != 0) {
      snprintf(err, errlen, "%s matched '%s', which is not a valid %s", list[i].param, value,
               list[i].field);
      return -EINVAL;
    }
  }
  return 0;
}
