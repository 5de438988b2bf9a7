#include "support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static char scratch[1024];

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  size_t got = fread(buf, 1, (size_t)n, f);
  buf[got] = '\0';
  fclose(f);
  return buf;
}

bool sl_cluster(void) {
  char *missing = slurp(SLURM_STATE "/missing");
  if (missing) {
    printf("Slurm test cluster missing: %s", missing);
    free(missing);
    return false;
  }
  char *conf = slurp(SLURM_STATE "/conf");
  if (!conf) {
    printf("Slurm test cluster missing: %s/conf is absent (the slurm_cluster_start fixture did "
           "not run)\n",
           SLURM_STATE);
    return false;
  }
  conf[strcspn(conf, "\n")] = '\0';
  setenv("SLURM_CONF", conf, 1);
  free(conf);
  return true;
}

const char *sl_scratch(const char *test) {
  snprintf(scratch, sizeof scratch, "%s/tests/%s-scratch", RIGOR_BINARY_DIR, test);
  char cmd[2200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", scratch, scratch);
  assert_int_equal(system(cmd), 0);
  return scratch;
}

const char *sl_private_dir(void) {
  static char dir[2048];
  char *text = slurp(SLURM_STATE "/private");
  if (!text) return NULL;
  snprintf(dir, sizeof dir, "%s", text);
  free(text);
  dir[strcspn(dir, "\n")] = '\0';
  return dir[0] ? dir : NULL;
}

const char *sl_path(const char *name) {
  static char path[2048];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  return path;
}

void sl_write(const char *name, const char *text) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

char *sl_read(const char *name) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  char *text = slurp(path);
  return text ? text : strdup("");
}

int sl_sh(const char *fmt, ...) {
  char text[4096], cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  snprintf(cmd, sizeof cmd, "cd '%s' && %s", scratch, text);
  int status = system(cmd);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void sl_wait(double seconds, const char *fmt, ...) {
  char text[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  for (int i = 0; i < (int)(seconds * 10); i++) {
    if (sl_sh("%s", text) == 0) return;
    usleep(100000);
  }
  sl_sh("echo '--- squeue'; squeue -a; echo '--- sinfo'; sinfo -N; echo '--- slurmctld'; "
        "tail -n 15 \"$(dirname \"$SLURM_CONF\")/slurmctld.log\"; echo '--- rigor'; "
        "tail -n 15 err.txt 2>/dev/null");
  fail_msg("waited %g s in vain for: %s", seconds, text);
}

sl_result_t sl_rigor(const char *fmt, ...) {
  char args[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  sl_result_t r = {sl_sh("'%s' %s </dev/null >out.txt 2>err.txt", RIGOR_EXE, args), NULL, NULL};
  r.out = sl_read("out.txt");
  r.err = sl_read("err.txt");
  return r;
}

void sl_result_free(sl_result_t *r) {
  free(r->out);
  free(r->err);
}

json_t *sl_records(const char *name, const char *type) {
  char *text = sl_read(name);
  json_t *out = json_array();
  for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    json_t *rec = json_loads(line, 0, NULL);
    const char *t = json_string_value(json_object_get(rec, "type"));
    if (t && strcmp(t, type) == 0) json_array_append(out, rec);
    json_decref(rec);
  }
  free(text);
  return out;
}
