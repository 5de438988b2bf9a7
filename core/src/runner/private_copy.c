#include "private_copy.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int copy_file(const char *from, const char *to) {
  int in = open(from, O_RDONLY | O_CLOEXEC);
  if (in < 0) return -1;
  int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR);
  if (out < 0) {
    int e = errno;
    close(in);
    errno = e;
    return -1;
  }
  char buf[1 << 16];
  ssize_t n;
  int rc = 0;
  while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      rc = -1;
      break;
    }
    for (ssize_t done = 0; done < n && rc == 0;) {
      ssize_t w = write(out, buf + done, (size_t)(n - done));
      if (w < 0 && errno != EINTR) rc = -1;
      if (w > 0) done += w;
    }
  }
  int e = errno;
  close(in);
  if (close(out) != 0 && rc == 0) rc = -1, e = errno;
  errno = e;
  return rc;
}

int rigor_private_copy_load(const char *so_path, const char *name, bool allow_unsafe,
                            rigor_loaded_t **out, char *err, size_t errlen) {
  const char *tmp = getenv("TMPDIR");
  char dir[PATH_MAX], file[PATH_MAX + 300];
  snprintf(dir, sizeof dir, "%s/rigor-arm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    snprintf(err, errlen, "cannot make a private folder for a copy of %s: %s", so_path,
             strerror(errno));
    return RIGOR_EIO;
  }
  snprintf(file, sizeof file, "%s/%s.so", dir, name);
  int rc = 0;
  if (copy_file(so_path, file) != 0) {
    snprintf(err, errlen, "cannot copy %s to %s: %s", so_path, file, strerror(errno));
    rc = RIGOR_EIO;
  } else {
    const char *dirs[] = {dir, NULL};
    rigor_plugin_search_t search = {dirs, allow_unsafe, true};
    rc = rigor_plugin_load(name, &search, out, err, errlen);
  }
  /* Once mapped, the copy is no longer needed on disk. */
  unlink(file);
  rmdir(dir);
  return rc < 0 ? rc : 0;
}
