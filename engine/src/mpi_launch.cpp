// Whether an MPI launcher started this process: the same answer with or without MPI built in, so
// that a build without MPI started by mpirun says so instead of running N lone copies.
#include <cstdlib>

#include "ooc/engine/mpi.hpp"

namespace ooc {

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

}  // namespace ooc
