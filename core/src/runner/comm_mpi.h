/* MPI-backed collectives for runs under a launcher (built when CMake finds MPI). */
#ifndef RIGOR_COMM_MPI_H
#define RIGOR_COMM_MPI_H

#include <stddef.h>

#include "context.h"

/* Initialises MPI and returns the world communicator, or NULL with a message when rigor was
 * built without MPI or MPI failed to start. */
rigor_comm_t *rigor_comm_mpi_init(int *argc, char ***argv, char *err, size_t errlen);
void rigor_comm_mpi_finalize(rigor_comm_t *c);

#endif
