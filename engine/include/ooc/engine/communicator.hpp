#pragma once
// How the ranks of a distributed run agree (docs/architecture.md, "Several ranks"). A rank
// runs the single-GPU (or CPU) pipeline on the partitions it owns and keeps a replica of the
// vertex arrays; after each iteration the replicas are combined through a Communicator: min
// (or max) for monotone programs, sum of the deltas' changes for accumulative ones.
//
// Implementations: MPI between processes (mpi.hpp: `mpirun -np N ooc-run ...`), and threads of
// one process sharing memory (below), which is how tests run many ranks in one binary.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace ooc {

enum class Reduction { min, max, sum };

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // How many of the ranks run on this host and so share its memory (EngineOptions::host_memory
  // is split among them): all of them for threads of one process; under MPI, those that
  // MPI_COMM_TYPE_SHARED groups with this one.
  virtual int ranks_on_host() const = 0;
  // Element-wise over all ranks, in place, in host memory; every rank calls with the same length
  // and operation, in the same order. A failed or vanished rank makes it throw (or, under MPI,
  // ends the job) rather than wait forever.
  virtual void all_reduce(std::span<std::uint32_t> data, Reduction op) = 0;
  virtual void all_reduce(std::span<float> data, Reduction op) = 0;
  virtual void all_reduce(std::span<std::uint64_t> data, Reduction op) = 0;
  virtual void all_reduce(std::span<double> data, Reduction op) = 0;
  // The sum over all ranks, as all_reduce's, of which each rank needs only its own block: on
  // return, data[rank() * block, (rank() + 1) * block) holds that block's sums, and the rest of
  // `data` is unspecified. data.size() is size() * block on every rank. All_reduce's rules. Half
  // the bytes of an all-reduce (NCCL's and MPI's all-reduce is a reduce-scatter then an
  // all-gather).
  virtual void reduce_scatter(std::span<float> data, std::size_t block) = 0;
  virtual void reduce_scatter(std::span<double> data, std::size_t block) = 0;
  // Bitwise OR over all ranks, in place (bit sets), with all_reduce's rules.
  virtual void all_or(std::span<std::uint32_t> data) = 0;
  // Every rank's `send` (the same length on every rank) into every rank's `receive`, rank r's at
  // r * send.size(); `receive` holds size() * send.size() words. All_reduce's rules.
  virtual void all_gather(std::span<const std::uint32_t> send,
                          std::span<std::uint32_t> receive) = 0;
  // Rank `root`'s `data` into every other rank's (the same length on every rank); root's is left
  // as it was. All_reduce's rules.
  virtual void broadcast(std::span<std::uint32_t> data, int root) = 0;
  // This rank failed: stop every rank, naming it and `why` (MPI: MPI_Abort; threads: the
  // others' next all_reduce throws). Does not return under MPI.
  virtual void abort(std::string_view why) noexcept = 0;
};

// Returns once every rank has called it (an all-reduce of nothing).
inline void barrier(Communicator& ranks) {
  std::uint64_t nothing = 0;
  ranks.all_reduce(std::span<std::uint64_t>(&nothing, 1), Reduction::sum);
}

// One communicator per rank for `ranks` threads of this process; thread r uses element r.
std::vector<std::unique_ptr<Communicator>> thread_communicators(int ranks);

}  // namespace ooc
