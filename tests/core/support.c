#include "support.h"
#include "test_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *tmpdir_make(void) {
  char *dir = strdup("/tmp/rigor-test-XXXXXX");
  if (!mkdtemp(dir)) abort();
  return dir;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

void tmpdir_remove(char *dir) {
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  free(dir);
}

char *scratch;

int scratch_setup(void **st) {
  (void)st;
  scratch = tmpdir_make();
  return 0;
}

int scratch_teardown(void **st) {
  (void)st;
  tmpdir_remove(scratch);
  scratch = NULL;
  return 0;
}

void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) abort();
  fputs(text, f);
  fclose(f);
}

char *read_file(const char *path) {
  return test_slurp(path, NULL);
}

char *path_join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

static void exec_rigor(const char *cwd, const char *const *args) {
  if (cwd && chdir(cwd) != 0) _exit(126);
  size_t n = 0;
  while (args[n])
    n++;
  char **argv = calloc(n + 2, sizeof *argv);
  argv[0] = (char *)RIGOR_EXE;
  for (size_t i = 0; i < n; i++)
    argv[i + 1] = (char *)args[i];
  execv(RIGOR_EXE, argv);
  _exit(127);
}

static char *slurp_fd(int fd) {
  size_t len = 0, cap = 4096;
  char *buf = malloc(cap);
  ssize_t n;
  while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
    len += (size_t)n;
    if (len + 1 >= cap) buf = realloc(buf, cap *= 2);
  }
  buf[len] = '\0';
  return buf;
}

cmd_result_t rigor_exec(const char *cwd, const char *const *args) {
  cmd_result_t r = {0};
  char out_tmpl[] = "/tmp/rigor-out-XXXXXX", err_tmpl[] = "/tmp/rigor-err-XXXXXX";
  int out = mkstemp(out_tmpl), err = mkstemp(err_tmpl);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    exec_rigor(cwd, args);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  lseek(out, 0, SEEK_SET);
  lseek(err, 0, SEEK_SET);
  r.out = slurp_fd(out);
  r.err = slurp_fd(err);
  close(out);
  close(err);
  unlink(out_tmpl);
  unlink(err_tmpl);
  return r;
}

void cmd_result_free(cmd_result_t *r) {
  free(r->out);
  free(r->err);
}

pid_t rigor_start(const char *cwd, const char *const *args) {
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    exec_rigor(cwd, args);
  }
  return pid;
}

json_t *results_read(const char *path) {
  json_t *all = json_array();
  FILE *f = fopen(path, "r");
  if (!f) return all;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) > 0) {
    if (line[n - 1] != '\n') break; /* a cut last line */
    json_error_t e;
    json_t *rec = json_loads(line, 0, &e);
    if (rec) json_array_append_new(all, rec);
  }
  free(line);
  fclose(f);
  return all;
}

size_t results_count(const json_t *records, const char *type, const char *key, const char *value) {
  size_t i, count = 0;
  json_t *rec;
  json_array_foreach(records, i, rec) {
    const char *t = json_string_value(json_object_get(rec, "type"));
    if (!t || strcmp(t, type) != 0) continue;
    if (key) {
      const char *v = json_string_value(json_object_get(rec, key));
      if (!v || strcmp(v, value) != 0) continue;
    }
    count++;
  }
  return count;
}

json_t *results_find_run(const json_t *records, int run) {
  size_t i;
  json_t *rec, *found = NULL;
  json_array_foreach(records, i, rec) {
    const char *t = json_string_value(json_object_get(rec, "type"));
    if (t && !strcmp(t, "run") && json_integer_value(json_object_get(rec, "run")) == run)
      found = rec;
  }
  return found;
}

int processes_matching(const char *needle) {
  DIR *d = opendir("/proc");
  int count = 0;
  struct dirent *e;
  pid_t self = getpid();
  while (d && (e = readdir(d))) {
    int pid = atoi(e->d_name);
    if (pid <= 0 || pid == self) continue;
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    for (size_t i = 0; i + 1 < n; i++)
      if (buf[i] == '\0') buf[i] = ' ';
    buf[n] = '\0';
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    char *stat = read_file(path);
    bool zombie = stat && strstr(stat, ") Z ");
    free(stat);
    if (!zombie && strstr(buf, needle)) count++;
  }
  if (d) closedir(d);
  return count;
}

char *config_in(const char *dir, const char *name, const char *yaml) {
  char *path = path_join(dir, name);
  write_file(path, yaml);
  return path;
}

size_t run_records(const char *results) {
  json_t *recs = results_read(results);
  size_t n = results_count(recs, "run", NULL, NULL);
  json_decref(recs);
  return n;
}

size_t wait_for_runs(const char *results, size_t n) {
  size_t have = run_records(results);
  for (int waited = 0; waited < 1000 && have < n; waited++) {
    usleep(10000);
    have = run_records(results);
  }
  return have;
}
