#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pto_vf_state.h"

static int read_file(const char *path, pto_vf_buffer_t *out) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -errno;
  struct stat sb;
  int rc = fstat(fd, &sb) == 0 ? 0 : -errno;
  if (rc == 0) {
    out->data = malloc((size_t)sb.st_size + 1);
    out->len = 0;
    if (!out->data) rc = -ENOMEM;
  }
  while (rc == 0) {
    ssize_t got = read(fd, out->data + out->len, (size_t)sb.st_size - out->len);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) rc = -errno;
    if (got <= 0 || out->len + (size_t)got == (size_t)sb.st_size) {
      out->len += got > 0 ? (size_t)got : 0;
      break;
    }
    out->len += (size_t)got;
  }
  close(fd);
  return rc;
}

int pto_vf_dumps_load(pto_vf_state_t *st) {
  char err[256];
  const pto_vf_params_t *p = st->p;
  int rc = vf_trace_set_find(p->trace_dir, p->vec_core, p->include_cube, &st->set, err, sizeof err);
  if (rc == -ENOENT) return pto_vf_set_invalid(st, "%s", err);
  if (rc) return st->host->error(st->ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  uint64_t bytes = 0;
  if (p->preload) {
    st->dumps = calloc(2 * st->set.n, sizeof *st->dumps);
    if (!st->dumps) return st->host->error(st->ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  }
  for (size_t i = 0; i < st->set.n; i++) {
    const char *paths[2] = {st->set.units[i].starts, st->set.units[i].ends};
    for (int k = 0; k < 2; k++) {
      struct stat sb;
      if (stat(paths[k], &sb) == 0) bytes += (uint64_t)sb.st_size;
      if (p->preload && (rc = read_file(paths[k], &st->dumps[2 * i + k])) != 0)
        return st->host->error(st->ctx, RIGOR_EIO, "pto_vf: %s: %s", paths[k], strerror(-rc));
    }
  }
  st->work->bytes = bytes;
  return 0;
}

int pto_vf_dumps_scan(pto_vf_state_t *st, size_t i, vf_summary_t *sum) {
  vf_reader_t readers[2];
  int fds[2] = {-1, -1};
  int rc = 0;
  for (int k = 0; k < 2 && rc == 0; k++) {
    if (st->dumps) {
      vf_reader_from_memory(&readers[k], st->dumps[2 * i + k].data, st->dumps[2 * i + k].len);
      continue;
    }
    fds[k] = open(k ? st->set.units[i].ends : st->set.units[i].starts, O_RDONLY);
    rc = fds[k] < 0 ? -errno : vf_reader_from_fd(&readers[k], fds[k]);
  }
  if (rc == 0) rc = vf_scan_core(&readers[0], &readers[1], (uint32_t)(2 * i), sum, NULL, NULL);
  for (int k = 0; k < 2; k++)
    if (fds[k] >= 0) {
      vf_reader_release(&readers[k]);
      close(fds[k]);
    }
  return rc;
}

const char *pto_vf_dump_path(const pto_vf_state_t *st, uint32_t file) {
  size_t unit = file / 2;
  if (unit >= st->set.n) return "?";
  return file % 2 ? st->set.units[unit].ends : st->set.units[unit].starts;
}

void pto_vf_dumps_release(pto_vf_state_t *st) {
  if (st->dumps)
    for (size_t i = 0; i < 2 * st->set.n; i++)
      free(st->dumps[i].data);
  free(st->dumps);
  st->dumps = NULL;
  vf_trace_set_free(&st->set);
}
