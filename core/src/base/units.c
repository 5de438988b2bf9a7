#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rigor/plugin.h"

/* Length of a plain decimal number at the start of s ([+-]digits[.digits][e[+-]digits]); 0 when
 * there is none. strtod alone would also take "inf", "nan" and hex floats. */
static size_t decimal_span(const char *s, bool allow_sign, bool allow_exponent) {
  size_t i = 0, digits = 0;
  if (allow_sign && (s[i] == '+' || s[i] == '-')) i++;
  while (isdigit((unsigned char)s[i]))
    i++, digits++;
  if (s[i] == '.') {
    i++;
    while (isdigit((unsigned char)s[i]))
      i++, digits++;
  }
  if (digits == 0) return 0;
  if (allow_exponent && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (s[j] == '+' || s[j] == '-') j++;
    if (isdigit((unsigned char)s[j])) {
      while (isdigit((unsigned char)s[j]))
        j++;
      i = j;
    }
  }
  return i;
}

int rigor_parse_int(const char *text, int64_t *out, char *err, size_t errlen) {
  size_t n = decimal_span(text, true, false);
  if (n == 0 || text[n] != '\0' || strchr(text, '.')) {
    snprintf(err, errlen, "'%s' is not an integer", text);
    return RIGOR_EINVAL;
  }
  errno = 0;
  long long v = strtoll(text, NULL, 10);
  if (errno == ERANGE) {
    snprintf(err, errlen, "integer '%s' is out of the 64-bit range", text);
    return RIGOR_ERANGE;
  }
  *out = v;
  return 0;
}

int rigor_parse_uint(const char *text, uint64_t *out, char *err, size_t errlen) {
  if (text[0] == '-') {
    snprintf(err, errlen, "'%s' is negative; expected a non-negative integer", text);
    return RIGOR_ERANGE;
  }
  size_t n = decimal_span(text, true, false);
  if (n == 0 || text[n] != '\0' || strchr(text, '.')) {
    snprintf(err, errlen, "'%s' is not a non-negative integer", text);
    return RIGOR_EINVAL;
  }
  errno = 0;
  unsigned long long v = strtoull(text, NULL, 10);
  if (errno == ERANGE) {
    snprintf(err, errlen, "integer '%s' is out of the 64-bit range", text);
    return RIGOR_ERANGE;
  }
  *out = v;
  return 0;
}

int rigor_parse_double(const char *text, double *out, char *err, size_t errlen) {
  size_t n = decimal_span(text, true, true);
  if (n == 0 || text[n] != '\0') {
    snprintf(err, errlen, "'%s' is not a number", text);
    return RIGOR_EINVAL;
  }
  errno = 0;
  double v = strtod(text, NULL);
  if (errno == ERANGE || !isfinite(v)) {
    snprintf(err, errlen, "number '%s' is out of range", text);
    return RIGOR_ERANGE;
  }
  *out = v;
  return 0;
}

int rigor_parse_bool(const char *text, int *out, char *err, size_t errlen) {
  static const char *const yes[] = {"true", "yes", "on"};
  static const char *const no[] = {"false", "no", "off"};
  for (size_t i = 0; i < 3; i++) {
    if (strcasecmp(text, yes[i]) == 0) return *out = 1, 0;
    if (strcasecmp(text, no[i]) == 0) return *out = 0, 0;
  }
  snprintf(err, errlen, "'%s' is not a boolean (true or false)", text);
  return RIGOR_EINVAL;
}

static uint64_t size_multiplier(const char *suffix, bool *ok) {
  static const char letters[] = "KMGTPE";
  *ok = true;
  if (suffix[0] == '\0' || strcmp(suffix, "B") == 0) return 1;
  const char *at = strchr(letters, toupper((unsigned char)suffix[0]));
  if (!at || suffix[0] == '\0') {
    *ok = false;
    return 0;
  }
  const char *rest = suffix + 1;
  if (!(rest[0] == '\0' || strcmp(rest, "B") == 0 || strcmp(rest, "iB") == 0)) {
    *ok = false;
    return 0;
  }
  return UINT64_C(1) << (10 * (unsigned)(at - letters + 1));
}

int rigor_parse_size(const char *text, uint64_t *out, char *err, size_t errlen) {
  if (text[0] == '-') {
    snprintf(err, errlen, "size '%s' is negative", text);
    return RIGOR_ERANGE;
  }
  size_t n = decimal_span(text, false, false);
  bool ok = n > 0;
  uint64_t mult = ok ? size_multiplier(text + n, &ok) : 0;
  if (!ok) {
    snprintf(err, errlen,
             "invalid size '%s' (expected bytes with an optional binary suffix: 512, 4KiB, 64M, "
             "1G)",
             text);
    return RIGOR_EINVAL;
  }
  /* Exact arithmetic: integer part * mult + fraction digits * mult / 10^k. */
  unsigned __int128 whole = 0, frac = 0, scale = 1;
  const char *s = text;
  for (; isdigit((unsigned char)*s); s++) {
    whole = whole * 10 + (unsigned)(*s - '0');
    if (whole > UINT64_MAX) goto overflow;
  }
  if (*s == '.')
    for (s++; isdigit((unsigned char)*s); s++) {
      if (scale > UINT64_MAX) goto inexact;
      frac = frac * 10 + (unsigned)(*s - '0');
      scale *= 10;
    }
  unsigned __int128 total = whole * mult;
  if (total > UINT64_MAX) goto overflow;
  unsigned __int128 part = frac * mult;
  if (part % scale != 0) goto inexact;
  total += part / scale;
  if (total > UINT64_MAX) goto overflow;
  *out = (uint64_t)total;
  return 0;
overflow:
  snprintf(err, errlen, "size '%s' overflows 64 bits", text);
  return RIGOR_ERANGE;
inexact:
  snprintf(err, errlen, "size '%s' is not a whole number of bytes", text);
  return RIGOR_EINVAL;
}

int rigor_parse_duration(const char *text, double *out, char *err, size_t errlen) {
  static const struct {
    const char *suffix;
    double seconds;
  } units[] = {{"", 1},      {"s", 1},  {"ms", 1e-3}, {"us", 1e-6},
               {"ns", 1e-9}, {"m", 60}, {"min", 60},  {"h", 3600}};
  if (text[0] == '-') {
    snprintf(err, errlen, "duration '%s' is negative", text);
    return RIGOR_ERANGE;
  }
  size_t n = decimal_span(text, false, false);
  for (size_t i = 0; n > 0 && i < sizeof units / sizeof *units; i++)
    if (strcmp(text + n, units[i].suffix) == 0) {
      double v = strtod(text, NULL) * units[i].seconds;
      if (!isfinite(v) || v > 1e9) {
        snprintf(err, errlen, "duration '%s' is too long", text);
        return RIGOR_ERANGE;
      }
      *out = v;
      return 0;
    }
  snprintf(err, errlen, "invalid duration '%s' (expected e.g. 30s, 500ms, 5m, 1h, 250us)", text);
  return RIGOR_EINVAL;
}

int rigor_parse_rate(const char *text, const char *unit, double *out, char *err, size_t errlen) {
  static const struct {
    const char *prefix;
    double factor;
  } prefixes[] = {{"Ki", 1024.0},
                  {"Mi", 1048576.0},
                  {"Gi", 1073741824.0},
                  {"Ti", 1099511627776.0},
                  {"Pi", 1125899906842624.0},
                  {"k", 1e3},
                  {"K", 1e3},
                  {"M", 1e6},
                  {"G", 1e9},
                  {"T", 1e12},
                  {"P", 1e15},
                  {"", 1}};
  size_t n = decimal_span(text, false, true);
  const char *rest = text + n;
  while (*rest == ' ')
    rest++;
  for (size_t i = 0; n > 0 && i < sizeof prefixes / sizeof *prefixes; i++) {
    size_t pl = strlen(prefixes[i].prefix);
    if (strncmp(rest, prefixes[i].prefix, pl) != 0 || strcmp(rest + pl, unit) != 0) continue;
    double v = strtod(text, NULL) * prefixes[i].factor;
    if (!isfinite(v)) break;
    *out = v;
    return 0;
  }
  snprintf(err, errlen,
           "invalid rate '%s' (expected a number and %s with an optional prefix: 300G%s, "
           "1.5T%s; K, M, G, T are decimal, Ki, Mi, Gi binary)",
           text, unit, unit, unit);
  return RIGOR_EINVAL;
}

int rigor_parse_percent(const char *text, double *out, char *err, size_t errlen) {
  if (text[0] == '-') {
    snprintf(err, errlen, "percentage '%s' is negative", text);
    return RIGOR_ERANGE;
  }
  size_t n = decimal_span(text, false, false);
  bool percent = n > 0 && strcmp(text + n, "%") == 0;
  if (n == 0 || (!percent && text[n] != '\0')) {
    snprintf(err, errlen, "invalid percentage '%s' (expected e.g. 5%% or 0.05)", text);
    return RIGOR_EINVAL;
  }
  double v = strtod(text, NULL);
  if (!isfinite(v)) {
    snprintf(err, errlen, "percentage '%s' is out of range", text);
    return RIGOR_ERANGE;
  }
  /* "5" could mean 5% or 500%: a bare number is a fraction, and a fraction above 1 is refused. */
  if (!percent && v > 1) {
    snprintf(err, errlen, "'%s' is ambiguous: write %s%% or %g (a bare number is a fraction)", text,
             text, v / 100);
    return RIGOR_ERANGE;
  }
  *out = percent ? v / 100.0 : v;
  return 0;
}

char *rigor_format_size(uint64_t bytes) {
  static const char *const names[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  char buf[32];
  int unit = -1;
  uint64_t v = bytes;
  while (v != 0 && v % 1024 == 0 && unit < 5)
    v /= 1024, unit++;
  if (unit < 0)
    snprintf(buf, sizeof buf, "%" PRIu64, bytes);
  else
    snprintf(buf, sizeof buf, "%" PRIu64 "%s", v, names[unit]);
  return strdup(buf);
}

void rigor_format_clock(char *buf, size_t cap, double s) {
  long t = isfinite(s) && s > 0 ? lround(s) : 0;
  if (t >= 3600)
    snprintf(buf, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    snprintf(buf, cap, "%ld:%02ld", t / 60, t % 60);
}
