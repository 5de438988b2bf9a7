#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pto_vf_state.h"
#include "rigor/plugin_identity.h"

int pto_vf_identity(rigor_ctx_t *ctx, void *state, rigor_kv_t *out, int cap) {
  (void)ctx;
  pto_vf_state_t *st = state;
  const pto_vf_params_t *p = st->p ? st->p : st->points->points[0];
  char err[512];
  int n = 0;
  if (pto_vf_dumps_hashes(st, p, err, sizeof err) == 0) {
    for (size_t i = 0; i < st->n_dumps; i++) {
      const pto_vf_dump_t *d = &st->dumps[i];
      XXH128_canonical_t c;
      XXH128_canonicalFromHash(&c, d->hash);
      char hex[2 * sizeof c.digest + 1];
      for (size_t b = 0; b < sizeof c.digest; b++)
        snprintf(hex + 2 * b, 3, "%02x", c.digest[b]);
      const char *base = strrchr(d->path, '/');
      char key[64];
      snprintf(key, sizeof key, "trace:%s", base ? base + 1 : d->path);
      n = rigor_kv_put(out, cap, n, key, "bytes=%" PRIu64 " xxh3_128=%s", (uint64_t)d->len, hex);
    }
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
