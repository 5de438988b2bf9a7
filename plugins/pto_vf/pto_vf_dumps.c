#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pto_vf_state.h"

/* Without preload, the hash reads the file a piece at a time. */
#define PTO_VF_READ_PIECE ((size_t)1 << 20)

static bool same_file(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static void dump_free(pto_vf_dump_t *d) {
  free(d->path);
  if (d->data && d->len > 0) munmap(d->data, d->len);
  memset(d, 0, sizeof *d);
}

/* The hash of a file read a piece at a time, for dumps the window streams from disk. */
static int hash_stream(pto_vf_dump_t *d, int fd) {
  char *piece = malloc(PTO_VF_READ_PIECE);
  XXH3_state_t *h = XXH3_createState();
  int rc = piece && h && XXH3_128bits_reset(h) == XXH_OK ? 0 : -ENOMEM;
  d->len = 0;
  while (rc == 0) {
    ssize_t got = read(fd, piece, PTO_VF_READ_PIECE);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) rc = -errno;
    if (got <= 0) break;
    XXH3_128bits_update(h, piece, (size_t)got);
    d->len += (size_t)got;
  }
  if (rc == 0) d->hash = XXH3_128bits_digest(h);
  XXH3_freeState(h);
  free(piece);
  return rc;
}

/* One pass over the file's bytes: with `keep` the file is mapped from the page cache, every page
 * populated now (nothing is copied, and the window takes no page fault), and hashed in place;
 * without, it is read through the hash. Returns 0 or -errno. */
static int read_once(pto_vf_dump_t *d, bool keep) {
  int fd = open(d->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  int rc = fstat(fd, &d->sb) == 0 ? 0 : -errno;
  if (rc == 0 && keep) {
    d->len = (size_t)d->sb.st_size;
    if (d->len > 0) {
      void *map = mmap(NULL, d->len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (map == MAP_FAILED) {
        rc = -errno;
        d->len = 0;
      } else {
        d->data = map;
      }
    }
    if (rc == 0) d->hash = XXH3_128bits(d->data ? d->data : "", d->len);
    d->preloaded = rc == 0;
  } else if (rc == 0) {
    rc = hash_stream(d, fd);
  }
  d->hashed = rc == 0;
  close(fd);
  return rc;
}

/* Files to read, shared by the threads that read them. */
typedef struct read_batch {
  pto_vf_dump_t **todo;
  int *rc;
  size_t n;
  bool keep;
  atomic_size_t next;
} read_batch_t;

static void *read_worker(void *arg) {
  read_batch_t *b = arg;
  for (size_t i; (i = atomic_fetch_add(&b->next, 1)) < b->n;)
    b->rc[i] = read_once(b->todo[i], b->keep);
  return NULL;
}

/* At most this many files are read at once, each by a thread of its own. */
#define PTO_VF_READERS 8

/* Reads every file of `todo` once, several at a time where the process may use several CPUs:
 * mapping, populating and hashing a file is memory-bound work that does not overlap any window
 * (identity and prime run before it). rc[i] is each file's outcome. */
static void read_all(pto_vf_dump_t **todo, int *rc, size_t n, bool keep) {
  read_batch_t b = {.todo = todo, .rc = rc, .n = n, .keep = keep};
  atomic_init(&b.next, 0);
  cpu_set_t set;
  size_t cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? (size_t)CPU_COUNT(&set) : 1;
  size_t helpers = n < cpus ? n : cpus;
  helpers = helpers > PTO_VF_READERS ? PTO_VF_READERS : helpers;
  helpers = helpers > 0 ? helpers - 1 : 0; /* the caller reads too */
  pthread_t threads[PTO_VF_READERS];
  size_t started = 0;
  while (started < helpers && pthread_create(&threads[started], NULL, read_worker, &b) == 0)
    started++;
  read_worker(&b);
  for (size_t i = 0; i < started; i++)
    pthread_join(threads[i], NULL);
}

/* Makes the dumps of `p` current. A file already in memory (or already hashed, without
 * preload) is kept when it is still the same file and no runner has just rewritten the dumps;
 * otherwise it is read once. -ENOENT (message in err) when a dump is missing. */
static int load_set(pto_vf_state_t *st, const pto_vf_params_t *p, bool rewritten, char *err,
                    size_t errlen) {
  vf_trace_set_t set;
  int rc = vf_trace_set_find(p->trace_dir, p->vec_core, p->include_cube, &set, err, errlen);
  if (rc) return rc;
  pto_vf_dump_t *dumps = calloc(2 * set.n + 1, sizeof *dumps);
  if (!dumps) {
    vf_trace_set_free(&set);
    return -ENOMEM;
  }
  pto_vf_dump_t **todo = calloc(2 * set.n + 1, sizeof *todo);
  int *todo_rc = calloc(2 * set.n + 1, sizeof *todo_rc);
  size_t n_todo = 0;
  if (!todo || !todo_rc) rc = -ENOMEM;
  for (size_t i = 0; i < 2 * set.n && rc == 0; i++) {
    pto_vf_dump_t *d = &dumps[i];
    const char *path = i % 2 ? set.units[i / 2].ends : set.units[i / 2].starts;
    struct stat now;
    if (stat(path, &now) != 0) {
      rc = -errno;
      snprintf(err, errlen, "%s: %s", path, strerror(errno));
      break;
    }
    for (size_t j = 0; j < st->n_dumps && !rewritten; j++) {
      pto_vf_dump_t *old = &st->dumps[j];
      if (old->path && strcmp(old->path, path) == 0 && same_file(&old->sb, &now) &&
          (old->preloaded || !p->preload)) {
        *d = *old;
        memset(old, 0, sizeof *old);
        break;
      }
    }
    if (d->path) continue;
    d->path = strdup(path);
    d->sb = now;
    if (!d->path) rc = -ENOMEM;
    if (p->preload) todo[n_todo++] = d;
  }
  if (rc == 0) read_all(todo, todo_rc, n_todo, true);
  for (size_t i = 0; rc == 0 && i < n_todo; i++)
    if ((rc = todo_rc[i]) != 0) snprintf(err, errlen, "%s: %s", todo[i]->path, strerror(-rc));
  free(todo);
  free(todo_rc);
  if (rc) {
    for (size_t i = 0; i < 2 * set.n; i++)
      dump_free(&dumps[i]);
    free(dumps);
    vf_trace_set_free(&set);
    return rc == -ENOENT ? -EIO : rc;
  }
  pto_vf_dumps_release(st);
  st->set = set;
  st->dumps = dumps;
  st->n_dumps = 2 * set.n;
  return 0;
}

int pto_vf_dumps_load(pto_vf_state_t *st) {
  char err[512];
  int rc = load_set(st, st->p, st->ran, err, sizeof err);
  if (rc == -ENOENT) return pto_vf_set_invalid(st, "%s", err);
  if (rc == -ENOMEM) return st->host->error(st->ctx, RIGOR_ENOMEM, "pto_vf: out of memory");
  if (rc) return st->host->error(st->ctx, RIGOR_EIO, "pto_vf: %s", err);
  uint64_t bytes = 0;
  for (size_t i = 0; i < st->n_dumps; i++)
    bytes += (uint64_t)st->dumps[i].sb.st_size;
  st->work->bytes = bytes;
  return 0;
}

int pto_vf_dumps_hashes(pto_vf_state_t *st, const pto_vf_params_t *p, char *err, size_t errlen) {
  int rc = load_set(st, p, false, err, errlen);
  if (rc) return rc;
  pto_vf_dump_t **todo = calloc(st->n_dumps + 1, sizeof *todo);
  int *todo_rc = calloc(st->n_dumps + 1, sizeof *todo_rc);
  size_t n_todo = 0;
  if (!todo || !todo_rc) rc = -ENOMEM;
  for (size_t i = 0; rc == 0 && i < st->n_dumps; i++)
    if (!st->dumps[i].hashed) todo[n_todo++] = &st->dumps[i];
  if (rc == 0) read_all(todo, todo_rc, n_todo, false);
  for (size_t i = 0; rc == 0 && i < n_todo; i++)
    if ((rc = todo_rc[i]) != 0) snprintf(err, errlen, "%s: %s", todo[i]->path, strerror(-rc));
  free(todo);
  free(todo_rc);
  return rc;
}

int pto_vf_dumps_scan(pto_vf_state_t *st, size_t i, vf_summary_t *sum) {
  vf_reader_t readers[2];
  int fds[2] = {-1, -1};
  int rc = 0;
  for (int k = 0; k < 2 && rc == 0; k++) {
    const pto_vf_dump_t *d = &st->dumps[2 * i + k];
    if (d->preloaded) {
      vf_reader_from_memory(&readers[k], d->data, d->len);
      continue;
    }
    fds[k] = open(d->path, O_RDONLY);
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
  for (size_t i = 0; i < st->n_dumps; i++)
    dump_free(&st->dumps[i]);
  free(st->dumps);
  st->dumps = NULL;
  st->n_dumps = 0;
  vf_trace_set_free(&st->set);
}
