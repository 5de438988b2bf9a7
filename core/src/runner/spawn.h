/* Starting a run's process: forked, or as a new program under a launcher (mpirun, srun) or
 * with a padded environment. The run's records come back through a pipe, or a FIFO under a
 * launcher. */
#ifndef RIGOR_SPAWN_H
#define RIGOR_SPAWN_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "child.h"

typedef struct rigor_spawn {
  char dir[PATH_MAX]; /* private temporary folder holding the spec (and the FIFO) */
  int hold_fd;        /* our own writer on the FIFO, so reads never see a premature EOF */
} rigor_spawn_t;

/* Writes `spec` to a private file and starts `self __child SPEC ...`, behind the launcher's argv
 * ("{ranks}" replaced by `ranks`) when one is given. A non-NULL env_pad is exported as
 * RIGOR_ENV_PAD. Returns the pid (leader of its own process group) or -1. */
pid_t rigor_spawn_exec(const char *self, const json_t *spec, const json_t *launcher,
                       const json_t *ranks, const char *env_pad, rigor_spawn_t *sp, int *read_fd,
                       char *err, size_t errlen);
void rigor_spawn_cleanup(rigor_spawn_t *sp);

/* Forks a run without exec: the child inherits the parent's loaded plugin and settings, runs
 * `args` with its own stop flag and exits with its code. Returns the pid (leader of its own
 * process group, killed when the parent dies) or -1 with errno. */
pid_t rigor_spawn_fork(const rigor_child_args_t *args, int *read_fd);

#endif
