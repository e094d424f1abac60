#pragma once
// Ranks: a run on several GPUs from this process (a thread each) or under mpirun (a process each),
// which GPU each rank takes, and every rank's totals and iterations for the first rank's JSON and
// trace.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ooc/engine/communicator.hpp"
#include "ooc/engine/stats.hpp"
#include "options.hpp"

namespace ooc::tools {

// --devices: "all", or GPU numbers separated by commas, each once.
std::vector<int> parse_devices(const std::string& text);

// The GPU of an MPI rank: its place among the ranks on its host picks one of --devices (all of
// the host's GPUs when not given). The CPU backend's ranks need none.
int device_of_mpi_rank(const Args& a);

// Several GPUs from one process: a rank per GPU, each on its own thread, over the same exchange
// as MPI ranks. The first rank to fail stops the others; its line is the one reported. Returns
// the worst exit status.
int run_on_devices(const Args& a, const std::vector<int>& devices);

// Every rank's totals for the first rank's JSON: time, edges, bytes moved, exchange, and its host
// tier's (the lists it holds, the bytes it read from the file).
nlohmann::json per_rank(Communicator& ranks, const RunStats& stats);

// Every rank's iterations of its run, on every rank, for the first rank's --trace (collective).
// Ranks iterate in lockstep; each keeps its own count all the same.
std::vector<std::vector<IterationStats>> every_rank_iterations(Communicator& ranks,
                                                               const RunStats& stats);

}  // namespace ooc::tools
