#pragma once
// MPI as the launcher: `mpirun -np N ooc-run ...` (or srun) starts N ranks. MPI bootstraps them
// and reports failures; the CPU backend's ranks also combine their vertex arrays with
// MPI_Allreduce. Built when CMake finds MPI (OOC_WITH_MPI); public headers never include mpi.h.
#include <memory>

#include "ooc/engine/communicator.hpp"

namespace ooc {

// Whether this build has MPI.
bool built_with_mpi();

// Whether this process was started by an MPI launcher (Open MPI's mpirun, MPICH's or Slurm's
// PMI), from the variables they set, without initialising MPI.
bool launched_by_mpi();

// MPI_COMM_WORLD as a Communicator. MPI is initialised on the first call and finalised at exit.
// Throws Unsupported in a build without MPI.
std::shared_ptr<Communicator> mpi_world();

// This rank's number among the ranks on its host (MPI_COMM_TYPE_SHARED), to pick its GPU.
// Starts MPI as mpi_world() does, which groups the ranks by host once.
int mpi_local_rank();

}  // namespace ooc
