/* Scans one core's pair of dumps and prints the parse rate and the VF results, for comparison
 * with parse_vf_baseline.py on the same files. By default the dumps stream from disk through the
 * fixed-size reader buffers, reads included in the timing; with --preload they are read into
 * memory first and only the parse is timed (the plugin's timed window with `preload: true`). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pto_vf_scan.h"

static double now_s(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole file in a malloc'd block; NULL with errno set on failure. */
static char *read_all(int fd, size_t *len) {
  struct stat st;
  if (fstat(fd, &st) != 0) return NULL;
  char *data = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
  size_t got = 0;
  while (data && got < (size_t)st.st_size) {
    ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      free(data);
      return NULL;
    }
    got += (size_t)n;
  }
  *len = got;
  return data;
}

int main(int argc, char **argv) {
  int preload = argc == 4 && strcmp(argv[1], "--preload") == 0;
  if (argc != 3 + preload) {
    fprintf(stderr, "usage: %s [--preload] STARTS.instr_popped_log.dump ENDS.instr_log.dump\n",
            argv[0]);
    return 2;
  }
  int fds[2];
  char *data[2] = {NULL, NULL};
  vf_reader_t readers[2];
  for (int i = 0; i < 2; i++) {
    const char *path = argv[1 + preload + i];
    fds[i] = open(path, O_RDONLY);
    if (fds[i] < 0) {
      perror(path);
      return 1;
    }
    if (preload) {
      size_t len = 0;
      data[i] = read_all(fds[i], &len);
      if (!data[i]) {
        perror(path);
        return 1;
      }
      vf_reader_from_memory(&readers[i], data[i], len);
    } else {
      posix_fadvise(fds[i], 0, 0, POSIX_FADV_SEQUENTIAL);
      if (vf_reader_from_fd(&readers[i], fds[i]) != 0) return 1;
    }
  }
  vf_summary_t sum;
  vf_summary_init(&sum);
  double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
  int rc = vf_scan_core(&readers[0], &readers[1], 0, &sum, NULL, NULL);
  double t1 = now_s(CLOCK_MONOTONIC), c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
  if (rc != 0) {
    fprintf(stderr, "scan failed: %s\n", strerror(-rc));
    return 1;
  }
  double secs = t1 - t0, cpu = c1 - c0;
  printf("bytes %" PRIu64 " seconds %.3f MB/s %.1f cpu_seconds %.3f cpu_MB/s %.1f\n", sum.bytes,
         secs, sum.bytes / secs / 1e6, cpu, sum.bytes / cpu / 1e6);
  printf("vf_total_cycles %" PRIu64 " first_vf_start %" PRIu64 " last_vf_end %" PRIu64
         " vf_count %" PRIu64 " vf_exec_sum %" PRIu64 " malformed %" PRIu64 " peak_waiting %zu\n",
         sum.last_vf_end - sum.first_vf_start, sum.first_vf_start, sum.last_vf_end, sum.vf_ends,
         sum.exec_sum, sum.malformed, sum.peak_waiting);
  for (int i = 0; i < 2; i++) {
    vf_reader_release(&readers[i]);
    free(data[i]);
    close(fds[i]);
  }
  return 0;
}
