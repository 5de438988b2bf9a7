#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pto_vf_state.h"
#include "rigor/plugin_identity.h"

static uint64_t fnv1a(uint64_t h, const char *data, size_t len) {
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)data[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static int hash_file(const char *path, uint64_t *size, uint64_t *hash) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return -errno;
  char buf[65536];
  uint64_t h = 0xcbf29ce484222325ULL, n = 0;
  ssize_t got;
  while ((got = read(fd, buf, sizeof buf)) > 0) {
    h = fnv1a(h, buf, (size_t)got);
    n += (uint64_t)got;
  }
  close(fd);
  *size = n;
  *hash = h;
  return got < 0 ? -EIO : 0;
}

int pto_vf_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  pto_vf_state_t *st = state;
  const pto_vf_params_t *p = st->p ? st->p : st->points->points[0];
  vf_trace_set_t set = {0};
  char err[256];
  int n = 0;
  if (vf_trace_set_find(p->trace_dir, p->vec_core, p->include_cube, &set, err, sizeof err) == 0) {
    for (size_t i = 0; i < set.n; i++) {
      const char *paths[2] = {set.units[i].starts, set.units[i].ends};
      for (int k = 0; k < 2; k++) {
        uint64_t size = 0, hash = 0;
        const char *base = strrchr(paths[k], '/');
        char key[64];
        snprintf(key, sizeof key, "trace:%s", base ? base + 1 : paths[k]);
        if (hash_file(paths[k], &size, &hash) == 0)
          n = rigor_kv_put(out, cap, n, key, "bytes=%" PRIu64 " fnv1a64=%016" PRIx64, size, hash);
      }
    }
    vf_trace_set_free(&set);
  } else {
    n = rigor_kv_put(out, cap, n, "trace", "%s", err);
  }
  if (pto_vf_has_text(p->runner)) n = rigor_kv_put(out, cap, n, "runner_argv", "%s", p->runner);
  if (st->ran) {
    n = rigor_kv_put(out, cap, n, "runner_exit", "%d", st->run.exit_code);
    n = rigor_kv_put(out, cap, n, "runner_signal", "%d", st->run.term_signal);
    n = rigor_kv_put(out, cap, n, "runner_wall_s", "%.3f", st->run.wall_s);
    size_t len = st->run.output_len;
    n = rigor_kv_put(out, cap, n, "runner_stdout_tail", "%s",
                     st->run.output + (len > 255 ? len - 255 : 0));
    len = strlen(st->run.stderr_tail);
    n = rigor_kv_put(out, cap, n, "runner_stderr_tail", "%s",
                     st->run.stderr_tail + (len > 255 ? len - 255 : 0));
  }
  return n;
}
