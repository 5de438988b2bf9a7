/* `rigor __child SPEC`: one run started as a new program, from its spec (wire.h). */
#ifndef RIGOR_CHILD_MAIN_H
#define RIGOR_CHILD_MAIN_H

#include <stdbool.h>

/* Records go to out_path (a FIFO, under a launcher) or to out_fd. With `mpi`, MPI is started
 * from argc/argv and every rank measures; only rank 0 reports. Returns the exit code. */
int rigor_child_main(const char *spec_path, const char *out_path, int out_fd, bool mpi, int *argc,
                     char ***argv);

#endif
