#include "exec_tmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PREFIX    "rigor-exec-"
#define MAX_DEPTH 32

/* ---- removal, with system calls only (it also runs in a signal handler) ---------------------- */

struct linux_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

static bool is_dot(const char *name) {
  return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Empties the folder open as `fd`; its subfolders first, down to MAX_DEPTH. Passes until one
 * removes nothing, since entries removed while reading may shift what is read next. */
static void empty_folder(int fd, int depth) {
  char buf[2048];
  for (bool removed = true; removed;) {
    removed = false;
    lseek(fd, 0, SEEK_SET);
    long n;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
      for (long off = 0; off < n;) {
        struct linux_dirent64 *e = (struct linux_dirent64 *)(buf + off);
        off += e->d_reclen;
        if (is_dot(e->d_name)) continue;
        if (unlinkat(fd, e->d_name, 0) == 0) {
          removed = true;
          continue;
        }
        if (errno != EISDIR && errno != EPERM) continue;
        int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) continue;
        if (depth < MAX_DEPTH) empty_folder(sub, depth + 1);
        close(sub);
        removed = unlinkat(fd, e->d_name, AT_REMOVEDIR) == 0 || removed;
      }
  }
}

static void remove_tree(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  empty_folder(fd, 0);
  close(fd);
  rmdir(path);
}

/* ---- the signal guard ------------------------------------------------------------------------ */

static const int guarded[] = {SIGTERM, SIGINT, SIGHUP};
#define N_GUARDED (sizeof guarded / sizeof *guarded)

static char guard_path[PATH_MAX];
static bool guard_set[N_GUARDED];

static void on_fatal_signal(int sig) {
  int saved = errno;
  remove_tree(guard_path);
  signal(sig, SIG_DFL); /* and die of it, as the process would have */
  raise(sig);
  errno = saved;
}

/* Only where the signal would end the process without fini: a handler of the core's stays. */
static void guard(const char *path) {
  snprintf(guard_path, sizeof guard_path, "%s", path);
  for (size_t i = 0; i < N_GUARDED; i++) {
    struct sigaction old, sa;
    if (sigaction(guarded[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
      continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigfillset(&sa.sa_mask);
    guard_set[i] = sigaction(guarded[i], &sa, NULL) == 0;
  }
}

static void unguard(void) {
  for (size_t i = 0; i < N_GUARDED; i++)
    if (guard_set[i]) {
      signal(guarded[i], SIG_DFL);
      guard_set[i] = false;
    }
}

/* ---- stale folders --------------------------------------------------------------------------- */

/* rigor-exec-PID-XXXXXX of ours whose PID is gone: left by a process killed outright. */
static void sweep_stale(const char *tmpdir) {
  DIR *d = opendir(tmpdir);
  if (!d) return;
  int dfd = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d))) {
    int pid = 0, end = 0;
    if (sscanf(e->d_name, PREFIX "%d-%n", &pid, &end) != 1 || end == 0 || pid <= 0) continue;
    if (pid == (int)getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
    struct stat st;
    if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != getuid())
      continue;
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name) < (int)sizeof path)
      remove_tree(path);
  }
  closedir(d);
}

int exec_tmp_make(char *path, size_t cap) {
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
  sweep_stale(tmpdir);
  if (snprintf(path, cap, "%s/" PREFIX "%d-XXXXXX", tmpdir, (int)getpid()) >= (int)cap) {
    path[0] = '\0';
    return -ENAMETOOLONG;
  }
  if (!mkdtemp(path)) {
    int e = errno;
    path[0] = '\0';
    return -e;
  }
  guard(path);
  return 0;
}

void exec_tmp_remove(const char *path) {
  unguard();
  if (path[0]) remove_tree(path);
}
