#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rigor/plugin.h"

/* mkdir -p for the folder holding `path`. */
static int make_parent(const char *path) {
  char *copy = strdup(path);
  if (!copy) return -1;
  char *dir = dirname(copy);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(dir, 0755);
      *p = '/';
    }
  int rc = mkdir(dir, 0755) == 0 || errno == EEXIST ? 0 : -1;
  free(copy);
  return rc;
}

int rigor_results_open(rigor_results_writer_t *w, const char *path, bool truncate, char *err,
                       size_t errlen) {
  memset(w, 0, sizeof *w);
  w->fd = -1;
  if (make_parent(path) < 0) {
    snprintf(err, errlen, "%s: cannot create its folder: %s", path, strerror(errno));
    return RIGOR_EIO;
  }
  int flags = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (truncate ? O_TRUNC : 0);
  w->fd = open(path, flags, 0644);
  if (w->fd < 0) {
    bool link = errno == ELOOP, folder = errno == EISDIR;
    snprintf(err, errlen, "%s: cannot open for writing: %s%s", path, strerror(errno),
             link ? " (results are never written through a symlink)" : "");
    /* A link or a folder in the way is the caller's choice of path, not a failing disk. */
    return link || folder ? RIGOR_ECONFIG : RIGOR_EIO;
  }
  struct stat st;
  if (fstat(w->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: not a regular file", path);
    close(w->fd);
    w->fd = -1;
    return RIGOR_ECONFIG;
  }
  w->good_size = st.st_size;
  w->path = strdup(path);
  return 0;
}

int rigor_results_append(rigor_results_writer_t *w, const json_t *record, char *err,
                         size_t errlen) {
  char *text = json_dumps(record, JSON_COMPACT | JSON_ENSURE_ASCII);
  if (!text) {
    snprintf(err, errlen, "%s: cannot serialise a record", w->path);
    return RIGOR_ENOMEM;
  }
  size_t len = strlen(text);
  text[len] = '\n'; /* json_dumps leaves room: the terminator becomes the newline */
  const char *p = text;
  size_t left = len + 1;
  int rc = 0;
  while (left > 0) {
    ssize_t n = write(w->fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int e = n < 0 ? errno : ENOSPC;
      snprintf(err, errlen, "%s: write failed: %s; the file is kept as it was before this record",
               w->path, strerror(e));
      if (ftruncate(w->fd, w->good_size) != 0) {
        size_t used = strlen(err);
        snprintf(err + used, errlen - used, " (and cutting the partial line failed: %s)",
                 strerror(errno));
      }
      rc = RIGOR_EIO;
      break;
    }
    p += n;
    left -= (size_t)n;
  }
  free(text);
  if (rc == 0) w->good_size += (off_t)(len + 1);
  return rc;
}

int rigor_results_sync(rigor_results_writer_t *w, char *err, size_t errlen) {
  if (fsync(w->fd) != 0) {
    snprintf(err, errlen, "%s: fsync failed: %s", w->path, strerror(errno));
    return RIGOR_EIO;
  }
  return 0;
}

void rigor_results_close(rigor_results_writer_t *w) {
  if (w->fd >= 0) close(w->fd);
  w->fd = -1;
  free(w->path);
  w->path = NULL;
}
