#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

int rigor_results_check_path(const char *path, char *err, size_t errlen) {
  if (!path || !*path) {
    snprintf(err, errlen, "the results path is empty");
    return RIGOR_ECONFIG;
  }
  if (strlen(path) >= PATH_MAX) {
    snprintf(err, errlen, "%.80s...: the results path is longer than %d bytes", path, PATH_MAX - 1);
    return RIGOR_ECONFIG;
  }
  const char *base = strrchr(path, '/');
  if (strlen(base ? base + 1 : path) > NAME_MAX) {
    snprintf(err, errlen, "%s: a file name is longer than %d bytes", path, NAME_MAX);
    return RIGOR_ECONFIG;
  }
  struct stat st;
  if (lstat(path, &st) != 0) return 0; /* a new file */
  const char *what = S_ISLNK(st.st_mode) ? "a symlink: results are never written through a symlink"
                     : S_ISDIR(st.st_mode)  ? "a folder"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : !S_ISREG(st.st_mode) ? "not a regular file"
                                            : NULL;
  if (what) {
    snprintf(err, errlen, "%s: is %s; name a results file", path, what);
    return RIGOR_ECONFIG;
  }
  return 0;
}

int rigor_results_open(rigor_results_writer_t *w, const char *path, char *err, size_t errlen) {
  memset(w, 0, sizeof *w);
  w->fd = -1;
  int rc = rigor_results_check_path(path, err, errlen);
  if (rc < 0) return rc;
  if (make_parent(path) < 0) {
    snprintf(err, errlen, "%s: cannot create its folder: %s", path, strerror(errno));
    return RIGOR_EIO;
  }
  int flags = O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
  w->fd = open(path, flags, 0644);
  if (w->fd < 0) {
    bool refused = errno == ELOOP || errno == EISDIR || errno == ENXIO;
    snprintf(err, errlen, "%s: cannot open for writing: %s%s", path, strerror(errno),
             errno == ELOOP ? " (results are never written through a symlink)" : "");
    /* A link, a folder or a FIFO in the way is the caller's choice of path, not a failing disk. */
    return refused ? RIGOR_ECONFIG : RIGOR_EIO;
  }
  struct stat st;
  if (fstat(w->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: not a regular file", path);
    close(w->fd);
    w->fd = -1;
    return RIGOR_ECONFIG;
  }
  fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) & ~O_NONBLOCK);
  if (flock(w->fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    snprintf(err, errlen, "%s: %s; wait for the other writer or name another file", path,
             e == EWOULDBLOCK ? "another rigor is writing this results file" : strerror(e));
    close(w->fd);
    w->fd = -1;
    return e == EWOULDBLOCK ? RIGOR_ECONFIG : RIGOR_EIO;
  }
  w->good_size = st.st_size;
  w->dev = st.st_dev;
  w->ino = st.st_ino;
  w->path = strdup(path);
  return 0;
}

int rigor_results_truncate(rigor_results_writer_t *w, char *err, size_t errlen) {
  if (ftruncate(w->fd, 0) != 0) {
    snprintf(err, errlen, "%s: cannot empty it: %s", w->path, strerror(errno));
    return RIGOR_EIO;
  }
  w->good_size = 0;
  return 0;
}

int rigor_results_cut(rigor_results_writer_t *w, off_t size, char *err, size_t errlen) {
  if (size < w->good_size && ftruncate(w->fd, size) != 0) {
    snprintf(err, errlen, "%s: cannot cut its half-written last line: %s", w->path,
             strerror(errno));
    return RIGOR_EIO;
  }
  if (size < w->good_size) w->good_size = size;
  char last = '\n';
  if (w->good_size > 0 && pread(w->fd, &last, 1, w->good_size - 1) != 1) {
    snprintf(err, errlen, "%s: cannot read its end: %s", w->path, strerror(errno));
    return RIGOR_EIO;
  }
  if (last != '\n') {
    if (write(w->fd, "\n", 1) != 1) {
      snprintf(err, errlen, "%s: cannot end its last line: %s", w->path, strerror(errno));
      return RIGOR_EIO;
    }
    w->good_size++;
  }
  return 0;
}

bool rigor_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

int rigor_record_write_fd(int fd, const json_t *record, size_t *written) {
  *written = 0;
  char *text = json_dumps(record, JSON_COMPACT | JSON_ENSURE_ASCII);
  if (!text) return RIGOR_ENOMEM;
  size_t len = strlen(text);
  text[len] = '\n'; /* json_dumps leaves room: the terminator becomes the newline */
  int rc = 0;
  while (*written < len + 1) {
    ssize_t n = write(fd, text + *written, len + 1 - *written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      rc = RIGOR_EIO;
      break;
    }
    *written += (size_t)n;
  }
  int e = errno;
  free(text);
  errno = e;
  return rc;
}

int rigor_results_append(rigor_results_writer_t *w, const json_t *record, char *err,
                         size_t errlen) {
  size_t written;
  int rc = rigor_record_write_fd(w->fd, record, &written);
  if (rc == RIGOR_ENOMEM) {
    snprintf(err, errlen, "%s: cannot serialise a record", w->path);
    return rc;
  }
  if (rc) {
    snprintf(err, errlen, "%s: write failed: %s; the file is kept as it was before this record",
             w->path, strerror(errno));
    if (ftruncate(w->fd, w->good_size) != 0) {
      size_t used = strlen(err);
      snprintf(err + used, errlen - used, " (and cutting the partial line failed: %s)",
               strerror(errno));
    }
    return rc;
  }
  w->good_size += (off_t)written;
  return 0;
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
