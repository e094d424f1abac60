// A build without MPI: runs have one rank, and asking for MPI says how to get it.
#include "ooc/core/error.hpp"
#include "ooc/engine/mpi.hpp"

namespace ooc {

bool built_with_mpi() {
  return false;
}

namespace {

[[noreturn]] void no_mpi() {
  throw Unsupported(
      "this build has no MPI: install Open MPI (Debian: libopenmpi-dev) and configure again");
}

}  // namespace

std::shared_ptr<Communicator> mpi_world() {
  no_mpi();
}

int mpi_local_rank() {
  no_mpi();
}

}  // namespace ooc
