/* Runs the candidate's runner: an argv list, never a shell string. */
#ifndef PTO_VF_RUNNER_H
#define PTO_VF_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#define VF_RUNNER_KEEP (64u << 10) /* stdout bytes kept for patterns and reports */
#define VF_RUNNER_TAIL 1024        /* stderr bytes kept */

typedef struct vf_run_result {
  int exit_code;   /* -1 when killed by a signal */
  int term_signal; /* 0 when it exited */
  bool timed_out;
  double wall_s;
  char *output; /* last VF_RUNNER_KEEP bytes of stdout, NUL-terminated */
  size_t output_len;
  char stderr_tail[VF_RUNNER_TAIL + 1];
} vf_run_result_t;

/* Parses a JSON array of strings (["./run.sh", "--case", "a"]) into a NULL-terminated argv.
 * Returns 0 or -EINVAL with a message. */
int vf_argv_parse(const char *text, char ***argv, char *err, size_t errlen);
void vf_argv_free(char **argv);

/* Runs argv in `cwd` (NULL or "" for the current directory) with PTO_VF_TRACE_DIR set to
 * trace_dir, capturing output, killing the process group after timeout_s (<= 0: no limit).
 * Returns 0 when the runner was started and reaped (whatever its status), -errno otherwise. */
int vf_runner_exec(char *const *argv, const char *cwd, const char *trace_dir, double timeout_s,
                   vf_run_result_t *res, char *err, size_t errlen);
void vf_run_result_free(vf_run_result_t *res);

#endif
