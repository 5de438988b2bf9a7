#include "owned_dirs.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *rigor_tmp_root(void) {
  const char *tmp = getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)ftw;
  /* A read-only folder of ours must become writable before its entries can go. */
  if (flag == FTW_DNR) chmod(path, 0700);
  remove(path);
  return 0;
}

static int open_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)ftw;
  if (flag == FTW_D && !(st->st_mode & S_IWUSR)) chmod(path, st->st_mode | S_IRWXU);
  return 0;
}

void rigor_tree_remove(const char *path) {
  nftw(path, open_entry, 16, FTW_PHYS);
  nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void rigor_owned_dirs_sweep(const char *root, const char *prefix) {
  DIR *d = opendir(root);
  if (!d) return;
  size_t len = strlen(prefix);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, prefix, len) != 0 || e->d_name[len] != '-') continue;
    char *end = NULL;
    long pid = strtol(e->d_name + len + 1, &end, 10);
    if (pid <= 0 || pid > INT_MAX || !end || *end != '-') continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
    char path[PATH_MAX];
    struct stat st;
    if (snprintf(path, sizeof path, "%s/%s", root, e->d_name) >= (int)sizeof path ||
        lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
      continue;
    rigor_tree_remove(path);
  }
  closedir(d);
}

int rigor_owned_dir_make(const char *prefix, char *out, size_t cap) {
  const char *root = rigor_tmp_root();
  rigor_owned_dirs_sweep(root, prefix);
  if (snprintf(out, cap, "%s/%s-%d-XXXXXX", root, prefix, (int)getpid()) >= (int)cap) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return mkdtemp(out) ? 0 : -1;
}
