#include "pto_vf_trace_set.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char STARTS_SUFFIX[] = ".instr_popped_log.dump";
static const char ENDS_SUFFIX[] = ".instr_log.dump";

/* "core<digits>.veccore<digits>" or cubecore; sets *cube. */
static bool is_unit_name(const char *s, size_t n, bool *cube) {
  size_t i = 0;
  if (n < 4 || memcmp(s, "core", 4) != 0) return false;
  i = 4;
  size_t d = i;
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++;
  if (i == d) return false;
  if (n - i > 8 && memcmp(s + i, ".veccore", 8) == 0)
    *cube = false;
  else if (n - i > 9 && memcmp(s + i, ".cubecore", 9) == 0)
    *cube = true;
  else
    return false;
  i += *cube ? 9 : 8;
  d = i;
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++;
  return i > d && i == n;
}

static bool file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *dir, const char *unit, const char *suffix) {
  size_t n = strlen(dir) + strlen(unit) + strlen(suffix) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s", dir, unit, suffix);
  return p;
}

static int add_unit(vf_trace_set_t *set, const char *dir, const char *unit, bool cube, char *err,
                    size_t errlen) {
  for (size_t i = 0; i < set->n; i++)
    if (strcmp(set->units[i].unit, unit) == 0) return 0;
  vf_unit_files_t *units = realloc(set->units, (set->n + 1) * sizeof *units);
  if (!units) return -ENOMEM;
  set->units = units;
  vf_unit_files_t *u = &units[set->n];
  memset(u, 0, sizeof *u);
  snprintf(u->unit, sizeof u->unit, "%s", unit);
  u->cube = cube;
  u->starts = join(dir, unit, STARTS_SUFFIX);
  u->ends = join(dir, unit, ENDS_SUFFIX);
  set->n++;
  if (!u->starts || !u->ends) return -ENOMEM;
  const char *missing = !file_exists(u->starts) ? u->starts
                        : !file_exists(u->ends) ? u->ends
                                                : NULL;
  if (missing) {
    snprintf(err, errlen, "trace file missing: %s", missing);
    return -ENOENT;
  }
  return 0;
}

static int unit_cmp(const void *a, const void *b) {
  return strcmp(((const vf_unit_files_t *)a)->unit, ((const vf_unit_files_t *)b)->unit);
}

static int add_found(vf_trace_set_t *set, const char *dir, bool want_cube, char *err,
                     size_t errlen) {
  DIR *d = opendir(dir);
  if (!d) {
    snprintf(err, errlen, "cannot open trace directory %s: %s", dir, strerror(errno));
    return -ENOENT;
  }
  int rc = 0;
  struct dirent *de;
  while (rc == 0 && (de = readdir(d)) != NULL) {
    size_t n = strlen(de->d_name);
    size_t stem;
    if (n > sizeof STARTS_SUFFIX - 1 &&
        strcmp(de->d_name + n - (sizeof STARTS_SUFFIX - 1), STARTS_SUFFIX) == 0)
      stem = n - (sizeof STARTS_SUFFIX - 1);
    else if (n > sizeof ENDS_SUFFIX - 1 &&
             strcmp(de->d_name + n - (sizeof ENDS_SUFFIX - 1), ENDS_SUFFIX) == 0)
      stem = n - (sizeof ENDS_SUFFIX - 1);
    else
      continue;
    bool cube;
    char unit[48];
    if (stem >= sizeof unit || !is_unit_name(de->d_name, stem, &cube) || cube != want_cube)
      continue;
    memcpy(unit, de->d_name, stem);
    unit[stem] = '\0';
    rc = add_unit(set, dir, unit, cube, err, errlen);
  }
  closedir(d);
  return rc;
}

static int add_selected(vf_trace_set_t *set, const char *dir, const char *select, char *err,
                        size_t errlen) {
  const char *p = select;
  while (*p) {
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    char unit[48];
    bool cube;
    if (n >= sizeof unit || !is_unit_name(p, n, &cube)) {
      snprintf(err, errlen, "vec_core: '%.*s' is not a unit name like core0.veccore0", (int)n, p);
      return -ENOENT;
    }
    memcpy(unit, p, n);
    unit[n] = '\0';
    int rc = add_unit(set, dir, unit, cube, err, errlen);
    if (rc) return rc;
    p += comma ? n + 1 : n;
  }
  return 0;
}

int vf_trace_set_find(const char *dir, const char *select, bool include_cube, vf_trace_set_t *out,
                      char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  int rc = strcmp(select, "all") == 0 ? add_found(out, dir, false, err, errlen)
                                      : add_selected(out, dir, select, err, errlen);
  if (rc == 0 && out->n == 0) {
    snprintf(err, errlen, "trace file missing: no core<C>.veccore<V> dumps in %s", dir);
    rc = -ENOENT;
  }
  if (rc == 0 && include_cube) rc = add_found(out, dir, true, err, errlen);
  if (rc) {
    vf_trace_set_free(out);
    return rc;
  }
  qsort(out->units, out->n, sizeof *out->units, unit_cmp);
  return 0;
}

void vf_trace_set_free(vf_trace_set_t *set) {
  for (size_t i = 0; i < set->n; i++) {
    free(set->units[i].starts);
    free(set->units[i].ends);
  }
  free(set->units);
  memset(set, 0, sizeof *set);
}
