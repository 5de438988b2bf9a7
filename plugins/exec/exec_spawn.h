/* One execution: start the program in a process group of its own, collect its output, wait for
 * it, kill its group when it overstays. Nothing here allocates: the buffers, the stack of the
 * starting child and /dev/null are set up once by exec_spawner_open. */
#ifndef EXEC_SPAWN_H
#define EXEC_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "exec_command.h"

/* Keeps the last `keep` bytes of a stream in a buffer of 2 * keep + 1. */
typedef struct exec_sink {
  char *buf;
  size_t len, keep;
  bool cut; /* earlier output was dropped */
} exec_sink_t;

typedef struct exec_spawner {
  void *stack;
  size_t stack_size;
  int devnull; /* O_RDWR, close-on-exec */
} exec_spawner_t;

typedef struct exec_result {
  int wait_status; /* as waitpid reports it */
  bool timed_out;  /* killed, with its process group, after the timeout */
  int start_errno; /* the program could not be started (chdir, stdin or execve failed) */
  const char *start_step;
  double wall_s;
} exec_result_t;

int exec_sink_open(exec_sink_t *s, size_t keep);
void exec_sink_close(exec_sink_t *s);

int exec_spawner_open(exec_spawner_t *sp);
void exec_spawner_close(exec_spawner_t *sp);

/* Runs c once. stdout goes to `out` (NULL: /dev/null), stderr to `err`. Returns 0 when the
 * program was started and reaped, whatever its status, or -errno when it could not be started
 * for want of a pipe or a process. */
int exec_spawn(exec_spawner_t *sp, const exec_cmd_t *c, double timeout_s, exec_sink_t *out,
               exec_sink_t *err, exec_result_t *res);

/* "exit status 3", "killed by signal 9 (Killed)", "timed out after 2 s (process group killed)",
 * "could not chdir: No such file or directory". */
void exec_result_describe(const exec_result_t *r, double timeout_s, char *out, size_t cap);

#endif
