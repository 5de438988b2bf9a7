#include "file_copy.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int copy_fd(int in, int out) {
  char buf[1 << 16];
  ssize_t n;
  while ((n = read(in, buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    for (ssize_t done = 0; done < n;) {
      ssize_t w = write(out, buf + done, (size_t)(n - done));
      if (w < 0 && errno != EINTR) return -1;
      if (w > 0) done += w;
    }
  }
  return 0;
}

int rigor_file_copy(const char *from, const char *to, mode_t mode) {
  /* Non-blocking: a FIFO in place of the file is read as empty, never waited on. */
  int in = open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (in < 0) return -1;
  int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
  if (out < 0) {
    int e = errno;
    close(in);
    errno = e;
    return -1;
  }
  int rc = copy_fd(in, out);
  int e = errno;
  close(in);
  if (close(out) != 0 && rc == 0) rc = -1, e = errno;
  if (rc != 0) unlink(to);
  errno = e;
  return rc;
}
