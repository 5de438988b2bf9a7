#include "telemetry.h"
#include "rigor/plugin.h"

#include "clock.h"
#include "sysfs.h"
#include "telemetry_names.h"
#include "stats.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TELEMETRY_INTERVAL_MIN 0.001
#define TELEMETRY_INTERVAL_MAX 3600.0
#define HOOK_CAP               32

/* A value read from one sysfs file: cpufreq (kHz) or a temperature (millidegrees C). */
typedef struct file_source {
  char *name;
  char *path;
  double scale;
} file_source_t;

typedef struct series {
  char *name;
  double *v;
  size_t n, cap;
} series_t;

typedef struct named_value {
  const char *name;
  double value;
} named_value_t;

struct rigor_telemetry {
  char *root;
  double interval;
  bool raw;
  int *cpus;
  int n_cpus;
  char **cpuinfo_names; /* per bound CPU when /proc/cpuinfo replaces cpufreq, else NULL */
  file_source_t *files;
  int n_files;
  rigor_telemetry_hook_fn hook;
  void *hook_arg;
  series_t *series;
  int n_series;
  json_t *raw_samples;
  struct timespec t0;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool stopping;
};

static double seconds_since(const struct timespec *t0) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

static bool file_readable(const char *root, const char *path) {
  char buf[64];
  return rigor_sysfs_read_line(root, path, buf, sizeof buf) == 0;
}

static void sanitize(char *s) {
  for (; *s; s++)
    if (!isalnum((unsigned char)*s)) *s = '_';
}

static int add_file(rigor_telemetry_t *t, const char *name, const char *path, double scale) {
  file_source_t *grown = realloc(t->files, (size_t)(t->n_files + 1) * sizeof *grown);
  if (!grown) return RIGOR_ENOMEM;
  t->files = grown;
  file_source_t *f = &t->files[t->n_files];
  f->name = strdup(name);
  f->path = strdup(path);
  f->scale = scale;
  if (!f->name || !f->path) {
    free(f->name);
    free(f->path);
    return RIGOR_ENOMEM;
  }
  t->n_files++;
  return 0;
}

/* A signal name not used yet: `base`, else `base` with a numeric suffix before "_c". */
static void unique_temp_name(const rigor_telemetry_t *t, const char *base, char *out, size_t cap) {
  for (int k = 0;; k++) {
    if (k == 0)
      snprintf(out, cap, "temp_%s_c", base);
    else
      snprintf(out, cap, "temp_%s_%d_c", base, k);
    bool used = false;
    for (int i = 0; i < t->n_files && !used; i++)
      used = strcmp(t->files[i].name, out) == 0;
    if (!used) return;
  }
}

static bool cpuinfo_has_mhz(const char *root) {
  char path[4096], line[256];
  snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
  FILE *f = fopen(path, "r");
  if (!f) return false;
  bool found = false;
  while (!found && fgets(line, sizeof line, f))
    found = strncmp(line, "cpu MHz", 7) == 0;
  fclose(f);
  return found;
}

static int discover_freq(rigor_telemetry_t *t) {
  for (int i = 0; i < t->n_cpus; i++) {
    char path[128], name[48];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
             t->cpus[i]);
    snprintf(name, sizeof name, "cpu%d" RIGOR_CLOCK_SUFFIX, t->cpus[i]);
    if (!file_readable(t->root, path)) continue;
    int rc = add_file(t, name, path, 1e-3);
    if (rc != 0) return rc;
  }
  if (t->n_files > 0 || t->n_cpus == 0 || !cpuinfo_has_mhz(t->root)) return 0;
  t->cpuinfo_names = calloc((size_t)t->n_cpus, sizeof *t->cpuinfo_names);
  if (!t->cpuinfo_names) return RIGOR_ENOMEM;
  for (int i = 0; i < t->n_cpus; i++) {
    char name[48];
    snprintf(name, sizeof name, "cpu%d" RIGOR_CLOCK_SUFFIX, t->cpus[i]);
    if (!(t->cpuinfo_names[i] = strdup(name))) return RIGOR_ENOMEM;
  }
  return 0;
}

static int discover_thermal(rigor_telemetry_t *t) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/sys/class/thermal", t->root);
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (strncmp(e->d_name, "thermal_zone", 12) != 0) continue;
    char path[600], type[256] = "zone", name[300];
    snprintf(path, sizeof path, "/sys/class/thermal/%s/type", e->d_name);
    if (rigor_sysfs_read_line(t->root, path, type, sizeof type) != 0)
      snprintf(type, sizeof type, "%s", e->d_name);
    sanitize(type);
    snprintf(path, sizeof path, "/sys/class/thermal/%s/temp", e->d_name);
    if (!file_readable(t->root, path)) continue;
    unique_temp_name(t, type, name, sizeof name);
    rc = add_file(t, name, path, 1e-3);
  }
  closedir(d);
  return rc;
}

static int discover_hwmon_chip(rigor_telemetry_t *t, const char *chip_dir) {
  char dir[4096], chip[256];
  snprintf(dir, sizeof dir, "/sys/class/hwmon/%s/name", chip_dir);
  if (rigor_sysfs_read_line(t->root, dir, chip, sizeof chip) != 0)
    snprintf(chip, sizeof chip, "%s", chip_dir);
  snprintf(dir, sizeof dir, "%s/sys/class/hwmon/%s", t->root, chip_dir);
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "temp", 4) != 0 || len < 10 ||
        strcmp(e->d_name + len - 6, "_input") != 0)
      continue;
    char path[600], label[256], base[520], name[560];
    snprintf(path, sizeof path, "/sys/class/hwmon/%s/%.*s_label", chip_dir, (int)(len - 6),
             e->d_name);
    if (rigor_sysfs_read_line(t->root, path, label, sizeof label) != 0)
      snprintf(label, sizeof label, "%.*s", (int)(len - 6), e->d_name);
    snprintf(base, sizeof base, "%s_%s", chip, label);
    sanitize(base);
    snprintf(path, sizeof path, "/sys/class/hwmon/%s/%s", chip_dir, e->d_name);
    if (!file_readable(t->root, path)) continue;
    unique_temp_name(t, base, name, sizeof name);
    rc = add_file(t, name, path, 1e-3);
  }
  closedir(d);
  return rc;
}

static int discover_hwmon(rigor_telemetry_t *t) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/sys/class/hwmon", t->root);
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d)))
    if (strncmp(e->d_name, "hwmon", 5) == 0) rc = discover_hwmon_chip(t, e->d_name);
  closedir(d);
  return rc;
}

static void telemetry_free(rigor_telemetry_t *t) {
  if (!t) return;
  for (int i = 0; i < t->n_files; i++) {
    free(t->files[i].name);
    free(t->files[i].path);
  }
  free(t->files);
  if (t->cpuinfo_names)
    for (int i = 0; i < t->n_cpus; i++)
      free(t->cpuinfo_names[i]);
  free(t->cpuinfo_names);
  for (int i = 0; i < t->n_series; i++) {
    free(t->series[i].name);
    free(t->series[i].v);
  }
  free(t->series);
  free(t->cpus);
  free(t->root);
  json_decref(t->raw_samples);
  free(t);
}

/* The CPUs to sample: the bound ones, or every CPU this process may run on. */
static int set_cpus(rigor_telemetry_t *t, const int *cpus, int n_cpus) {
  cpu_set_t mask;
  if (n_cpus == 0) {
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) return 0;
    n_cpus = CPU_COUNT(&mask);
  }
  t->cpus = calloc(n_cpus ? (size_t)n_cpus : 1, sizeof *t->cpus);
  if (!t->cpus) return RIGOR_ENOMEM;
  if (cpus) {
    memcpy(t->cpus, cpus, (size_t)n_cpus * sizeof *cpus);
  } else {
    for (int c = 0, k = 0; c < CPU_SETSIZE && k < n_cpus; c++)
      if (CPU_ISSET(c, &mask)) t->cpus[k++] = c;
  }
  t->n_cpus = n_cpus;
  return 0;
}

static rigor_telemetry_t *telemetry_new(const char *root, const int *cpus, int n_cpus) {
  rigor_telemetry_t *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->root = strdup(root ? root : "");
  if (!t->root || set_cpus(t, n_cpus > 0 ? cpus : NULL, n_cpus > 0 ? n_cpus : 0) != 0 ||
      discover_freq(t) != 0 || discover_thermal(t) != 0 || discover_hwmon(t) != 0) {
    telemetry_free(t);
    return NULL;
  }
  return t;
}

json_t *rigor_telemetry_sources(void) {
  rigor_telemetry_t *t = telemetry_new("", NULL, 0);
  if (!t) return json_null();
  bool freq_files = false, thermal = false, hwmon = false;
  for (int i = 0; i < t->n_files; i++) {
    const char *p = t->files[i].path;
    freq_files |= strstr(p, "/cpufreq/") != NULL;
    thermal |= strncmp(p, "/sys/class/thermal/", 19) == 0;
    hwmon |= strncmp(p, "/sys/class/hwmon/", 17) == 0;
  }
  const char *freq = freq_files ? "cpufreq" : t->cpuinfo_names ? "cpuinfo" : "unavailable";
  const char *temp = thermal && hwmon ? "thermal+hwmon"
                     : thermal        ? "thermal"
                     : hwmon          ? "hwmon"
                                      : "unavailable";
  json_t *out = json_pack("{s:s, s:s, s:s}", "cpu_freq", freq, "temperature", temp, "load",
                          file_readable("", "/proc/loadavg") ? "loadavg" : "unavailable");
  telemetry_free(t);
  return out;
}

static void series_push(rigor_telemetry_t *t, const char *name, double value) {
  series_t *s = NULL;
  for (int i = 0; i < t->n_series && !s; i++)
    if (strcmp(t->series[i].name, name) == 0) s = &t->series[i];
  if (!s) {
    series_t *grown = realloc(t->series, (size_t)(t->n_series + 1) * sizeof *grown);
    if (!grown) return;
    t->series = grown;
    s = &t->series[t->n_series];
    *s = (series_t){strdup(name), NULL, 0, 0};
    if (!s->name) return;
    t->n_series++;
  }
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    double *v = realloc(s->v, cap * sizeof *v);
    if (!v) return;
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = value;
}

/* "cpu MHz" of each bound CPU, matched through the preceding "processor" line. */
static int read_cpuinfo(const rigor_telemetry_t *t, named_value_t *out) {
  char path[4096], line[256];
  snprintf(path, sizeof path, "%s/proc/cpuinfo", t->root);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int n = 0, processor = -1;
  while (fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (!colon) continue;
    if (strncmp(line, "processor", 9) == 0) {
      processor = atoi(colon + 1);
    } else if (strncmp(line, "cpu MHz", 7) == 0) {
      for (int i = 0; i < t->n_cpus; i++)
        if (t->cpus[i] == processor)
          out[n++] = (named_value_t){t->cpuinfo_names[i], atof(colon + 1)};
    }
  }
  fclose(f);
  return n;
}

static void sample(rigor_telemetry_t *t) {
  double when = seconds_since(&t->t0);
  named_value_t values[512];
  int n = 0;
  char buf[128];
  for (int i = 0; i < t->n_files && n < 256; i++) {
    if (rigor_sysfs_read_line(t->root, t->files[i].path, buf, sizeof buf) != 0) continue;
    char *end;
    double v = strtod(buf, &end);
    if (end != buf) values[n++] = (named_value_t){t->files[i].name, v * t->files[i].scale};
  }
  if (t->cpuinfo_names && t->n_cpus <= 128) n += read_cpuinfo(t, values + n);
  if (rigor_sysfs_read_line(t->root, "/proc/loadavg", buf, sizeof buf) == 0)
    values[n++] = (named_value_t){"load1", atof(buf)};
  rigor_telemetry_value_t hooked[HOOK_CAP];
  int n_hooked = t->hook ? t->hook(t->hook_arg, hooked, HOOK_CAP) : 0;
  for (int i = 0; i < n_hooked && i < HOOK_CAP; i++) {
    hooked[i].name[sizeof hooked[i].name - 1] = '\0';
    values[n++] = (named_value_t){hooked[i].name, hooked[i].value};
  }

  json_t *row = t->raw ? json_pack("{s:f}", "t", when) : NULL;
  for (int i = 0; i < n; i++) {
    if (!isfinite(values[i].value)) continue;
    series_push(t, values[i].name, values[i].value);
    if (row) json_object_set_new(row, values[i].name, json_real(values[i].value));
  }
  if (row) json_array_append_new(t->raw_samples, row);
}

static void *sampler_main(void *arg) {
  rigor_telemetry_t *t = arg;
  struct timespec next = t->t0;
  long step_ns = (long)(t->interval * 1e9);
  for (;;) {
    sample(t);
    pthread_mutex_lock(&t->mu);
    /* Fixed rate: the next tick is relative to the previous one, skipping ticks that were missed.
     */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    do {
      next.tv_sec += step_ns / 1000000000L;
      next.tv_nsec += step_ns % 1000000000L;
      if (next.tv_nsec >= 1000000000L) {
        next.tv_sec++;
        next.tv_nsec -= 1000000000L;
      }
    } while (next.tv_sec < now.tv_sec ||
             (next.tv_sec == now.tv_sec && next.tv_nsec <= now.tv_nsec));
    while (!t->stopping && pthread_cond_timedwait(&t->cv, &t->mu, &next) != ETIMEDOUT) {
    }
    bool stop = t->stopping;
    pthread_mutex_unlock(&t->mu);
    if (stop) break;
  }
  /* The closing sample: a run shorter than one interval still has a start and an end value. */
  sample(t);
  return NULL;
}

int rigor__telemetry_start_at(const char *root, double interval_s, bool raw, const int *cpus,
                              int n_cpus, rigor_telemetry_hook_fn hook, void *hook_arg,
                              rigor_telemetry_t **out) {
  if (!out || n_cpus < 0 || (n_cpus > 0 && !cpus)) return RIGOR_EINVAL;
  *out = NULL;
  if (!(interval_s >= TELEMETRY_INTERVAL_MIN && interval_s <= TELEMETRY_INTERVAL_MAX))
    return RIGOR_EINVAL;
  rigor_telemetry_t *t = telemetry_new(root, cpus, n_cpus);
  if (!t) return RIGOR_ENOMEM;
  t->interval = interval_s;
  t->raw = raw;
  t->hook = hook;
  t->hook_arg = hook_arg;
  if (t->raw && !(t->raw_samples = json_array())) {
    telemetry_free(t);
    return RIGOR_ENOMEM;
  }
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, &attr);
  pthread_condattr_destroy(&attr);
  clock_gettime(CLOCK_MONOTONIC, &t->t0);
  if (pthread_create(&t->thread, NULL, sampler_main, t) != 0) {
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    telemetry_free(t);
    return RIGOR_ENOMEM;
  }
  *out = t;
  return 0;
}

int rigor_telemetry_start(double interval_s, bool raw, const int *cpus, int n_cpus,
                          rigor_telemetry_hook_fn hook, void *hook_arg, rigor_telemetry_t **out) {
  return rigor__telemetry_start_at("", interval_s, raw, cpus, n_cpus, hook, hook_arg, out);
}

/* Sorts in place; the median of an even count is the mean of the two middle values. */
static double median_of(double *v, size_t n) {
  rigor_stats_sort(v, n);
  return rigor_stats_median_sorted(v, n);
}

json_t *rigor_telemetry_stop(rigor_telemetry_t *t, json_t **raw) {
  if (raw) *raw = NULL;
  if (!t) return NULL;
  pthread_mutex_lock(&t->mu);
  t->stopping = true;
  pthread_cond_signal(&t->cv);
  pthread_mutex_unlock(&t->mu);
  pthread_join(t->thread, NULL);
  pthread_cond_destroy(&t->cv);
  pthread_mutex_destroy(&t->mu);

  json_t *summary = json_object();
  for (int i = 0; i < t->n_series; i++) {
    series_t *s = &t->series[i];
    double med = median_of(s->v, s->n);
    json_object_set_new(summary, s->name,
                        json_pack("{s:f, s:f, s:f, s:I}", "min", s->v[0], "median", med, "max",
                                  s->v[s->n - 1], "n", (json_int_t)s->n));
  }
  if (raw && t->raw_samples) {
    *raw = t->raw_samples;
    t->raw_samples = NULL;
  }
  telemetry_free(t);
  return summary;
}
