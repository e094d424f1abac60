// ooc-run: runs the algorithms of its table (algorithms.cpp) on a .oocg graph (or one generated in
// memory) with OocEngine, prints a summary line per run, and optionally verifies the result
// against the serial reference, writes the values, the stats as JSON and a per-iteration trace.
// See docs/cli.md.
//
//   command_line.cpp  the options          options.cpp    their lists, parsed
//   algorithms.cpp    the table            engine_setup.cpp  the engine, sources, warnings
//   run.cpp           runs and reports     outputs.cpp    --output, --json, --trace files
//   ranks.cpp         several GPUs, MPI    calibration.cpp  --calibration
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "command_line.hpp"
#include "ooc/engine/mpi.hpp"
#include "outputs.hpp"
#include "ranks.hpp"
#include "run.hpp"
#include "tool_main.hpp"

namespace ooc::tools {
namespace {

// One process: on one GPU (or the CPU), or a rank per GPU of --devices.
int run_here(const Args& a) {
  check_output_paths(a);  // before a long load, and before the ranks of --devices start
  const std::vector<int> devices =
      a.devices.empty() ? std::vector<int>{0} : parse_devices(a.devices);
  if (devices.size() > 1) return run_on_devices(a, devices);  // their loads would interleave a bar
  const ProgressBar progress(a.quiet);
  return run_all(a, nullptr, devices.front());
}

// Under mpirun every process is a rank; MPI is started only then.
int run_as_mpi_rank(const Args& a) {
  std::shared_ptr<Communicator> ranks;
  try {
    ranks = mpi_world();
    if (ranks->rank() == 0) check_output_paths(a);  // the first rank writes the files
    const int device = device_of_mpi_rank(a);
    const ProgressBar progress(a.quiet || ranks->rank() != 0);
    return run_all(a, ranks->size() > 1 ? ranks : nullptr, device);
  } catch (const std::exception& e) {
    if (!ranks || ranks->size() == 1) throw;
    // One line naming the rank, then every rank stops (MPI_Abort): none waits forever.
    std::fprintf(stderr, "ooc-run: rank %d of %d: %s\n", ranks->rank(), ranks->size(), e.what());
    std::fflush(stderr);
    ranks->abort(e.what());
    throw;
  }
}

}  // namespace
}  // namespace ooc::tools

int main(int argc, char** argv) {
  using namespace ooc;
  using namespace ooc::tools;
  CLI::App app{"Runs a graph algorithm with OocGraph's out-of-core engine.", "ooc-run"};
  Args a;
  add_options(app, a);
  int status = 0;
  const int rc = run_main(app, argc, argv, [&] {
    if (a.graph.empty() && a.generate.empty())
      throw InvalidInput("give a graph: --graph FILE or --generate kron:SCALE");
    const auto threads = limit_threads(a.threads);
    status = launched_by_mpi() ? run_as_mpi_rank(a) : run_here(a);
  });
  return rc != 0 ? rc : status;
}
