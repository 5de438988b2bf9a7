/* Starting a run's process as a new program: a start that fails part way leaves no descriptor
 * open and no folder behind. The failure is forced for real, with RLIMIT_NOFILE set so that only
 * one more descriptor can be opened. */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "spawn.h"
#include "support.h"

static size_t open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  assert_non_null(d);
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

static size_t entries(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

/* The lowest free descriptor number: with the limit one above it, exactly one more descriptor
 * can be open at a time. */
static int lowest_free_fd(void) {
  int fd = open("/dev/null", O_RDONLY);
  assert_true(fd >= 0);
  close(fd);
  return fd;
}

/* Starts `true ...` (or `self` straight) with one spare descriptor and returns what
 * rigor_spawn_exec returned; cleans up as the runner does. */
static pid_t spawn_with_one_spare_fd(const json_t *launcher, char *err, size_t errlen) {
  json_t *spec = json_pack("{s:s}", "experiment", "spawn");
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
  struct rlimit tight = {.rlim_cur = (rlim_t)lowest_free_fd() + 1, .rlim_max = old.rlim_max};
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &tight), 0);
  rigor_spawn_t sp;
  int fd = -1;
  pid_t pid = rigor_spawn_exec("/bin/true", spec, launcher, NULL, NULL, &sp, &fd, err, errlen);
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
  if (pid > 0) {
    waitpid(pid, NULL, 0);
    close(fd);
  }
  rigor_spawn_cleanup(&sp);
  json_decref(spec);
  return pid;
}

/* Under a launcher the FIFO's reader opens and our own writer on it does not. */
static void test_fifo_writer_fails_closes_the_reader(void **st) {
  (void)st;
  char *dir = tmpdir_make();
  setenv("TMPDIR", dir, 1);
  json_t *launcher = json_pack("[s]", "/bin/true");
  size_t before = open_fds();
  char err[256] = "";
  assert_int_equal(spawn_with_one_spare_fd(launcher, err, sizeof err), -1);
  assert_non_null(strstr(err, "FIFO"));
  assert_int_equal(open_fds(), before);
  assert_int_equal(entries(dir), 0);
  json_decref(launcher);
  unsetenv("TMPDIR");
  tmpdir_remove(dir);
}

/* Without a launcher the spec's memory file opens and the pipe does not. */
static void test_pipe_fails_closes_the_spec(void **st) {
  (void)st;
  size_t before = open_fds();
  char err[256] = "";
  assert_int_equal(spawn_with_one_spare_fd(NULL, err, sizeof err), -1);
  assert_non_null(strstr(err, "pipe"));
  assert_int_equal(open_fds(), before);
}

/* A start that succeeds leaves nothing open either once the run is over and cleaned up. */
static void test_started_run_leaves_nothing(void **st) {
  (void)st;
  char *dir = tmpdir_make();
  setenv("TMPDIR", dir, 1);
  json_t *launcher = json_pack("[s]", "/bin/true");
  json_t *spec = json_pack("{s:s}", "experiment", "spawn");
  size_t before = open_fds();
  rigor_spawn_t sp;
  int fd = -1;
  char err[256] = "";
  pid_t pid = rigor_spawn_exec("/bin/true", spec, launcher, NULL, NULL, &sp, &fd, err, sizeof err);
  assert_true(pid > 0);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  close(fd);
  rigor_spawn_cleanup(&sp);
  assert_int_equal(open_fds(), before);
  assert_int_equal(entries(dir), 0);
  json_decref(spec);
  json_decref(launcher);
  unsetenv("TMPDIR");
  tmpdir_remove(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fifo_writer_fails_closes_the_reader),
      cmocka_unit_test(test_pipe_fails_closes_the_spec),
      cmocka_unit_test(test_started_run_leaves_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
