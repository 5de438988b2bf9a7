/* Streams one core's pair of dumps through the scanner with fixed-size buffers and prints the
 * parse rate and the VF results, for comparison with parse_vf_baseline.py on the same files. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vf_scan.h"

static double now_s(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s STARTS.instr_popped_log.dump ENDS.instr_log.dump\n", argv[0]);
    return 2;
  }
  int fds[2];
  vf_reader_t readers[2];
  for (int i = 0; i < 2; i++) {
    fds[i] = open(argv[1 + i], O_RDONLY);
    if (fds[i] < 0) {
      perror(argv[1 + i]);
      return 1;
    }
    posix_fadvise(fds[i], 0, 0, POSIX_FADV_SEQUENTIAL);
    if (vf_reader_from_fd(&readers[i], fds[i]) != 0) return 1;
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
    close(fds[i]);
  }
  return 0;
}
