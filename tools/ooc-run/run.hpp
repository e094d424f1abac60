#pragma once
// Running and reporting: every algorithm, setting and repeat asked for, each run's summary line,
// its check against the serial reference and its statistics, on a graph loaded once (once per
// --compressed value).
#include <memory>

#include "ooc/engine/communicator.hpp"
#include "options.hpp"

namespace ooc::tools {

// Runs every algorithm and setting asked for; returns the exit status (kExitMismatch when a
// verification failed). With `ranks` this process is one rank of a distributed run: the first
// prints the graph, the checks and the files, every rank its own summary lines.
int run_all(const Args& a, const std::shared_ptr<Communicator>& ranks, int device);

}  // namespace ooc::tools
