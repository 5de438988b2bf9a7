#include "comm_mpi.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef RIGOR_HAVE_MPI
#include <mpi.h>

static int mpi_barrier(rigor_comm_t *c) {
  (void)c;
  return MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : RIGOR_EIO;
}

static int mpi_allreduce(rigor_comm_t *c, void *buf, size_t count, rigor_host_dtype_t dtype,
                         rigor_redop_t op) {
  (void)c;
  MPI_Datatype t = dtype == RIGOR_DT_DOUBLE  ? MPI_DOUBLE
                   : dtype == RIGOR_DT_INT64 ? MPI_INT64_T
                                             : MPI_UINT64_T;
  MPI_Op o = op == RIGOR_RED_MIN ? MPI_MIN : op == RIGOR_RED_MAX ? MPI_MAX : MPI_SUM;
  return MPI_Allreduce(MPI_IN_PLACE, buf, (int)count, t, o, MPI_COMM_WORLD) == MPI_SUCCESS
             ? 0
             : RIGOR_EIO;
}

static int mpi_broadcast(rigor_comm_t *c, void *buf, size_t bytes, int root) {
  (void)c;
  return MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : RIGOR_EIO;
}

rigor_comm_t *rigor_comm_mpi_init(int *argc, char ***argv, char *err, size_t errlen) {
  if (MPI_Init(argc, argv) != MPI_SUCCESS) {
    snprintf(err, errlen, "MPI_Init failed");
    return NULL;
  }
  rigor_comm_t *c = calloc(1, sizeof *c);
  if (!c) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c->size);
  c->barrier = mpi_barrier;
  c->allreduce = mpi_allreduce;
  c->broadcast = mpi_broadcast;
  return c;
}

void rigor_comm_mpi_finalize(rigor_comm_t *c) {
  MPI_Finalize();
  free(c);
}

#else

rigor_comm_t *rigor_comm_mpi_init(int *argc, char ***argv, char *err, size_t errlen) {
  (void)argc, (void)argv;
  snprintf(err, errlen, "this rigor was built without MPI: a launcher cannot be used");
  return NULL;
}

void rigor_comm_mpi_finalize(rigor_comm_t *c) {
  (void)c;
}

#endif
