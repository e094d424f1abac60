#pragma once
// The seam between the engine's brain and its backends. The driver runs HyTGraph's loop —
// survey and choose engines, generate tasks, execute them, advance the frontier — and a backend
// (CPU or CUDA, one instantiation per program) does the surveying and executing.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/engine/tasks.hpp"

namespace ooc::detail {

// The lists the pull direction reads: a symmetric graph's own (its out-lists are its in-lists),
// or a directed graph's in-lists (in_edge_view), with partitions of the same vertex ranges whose
// edges are those lists'.
struct Lists {
  const Graph& graph;
  std::span<const Partition> partitions;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Fills one survey per partition (activity, engine choice, priority) from the current frontier.
  virtual void survey(std::vector<PartitionSurvey>& out) = 0;
  // Runs the tasks in order; adds edges processed, bytes and phase times to `stats`.
  virtual void execute(std::span<const Task> tasks, IterationStats& stats) = 0;
  // Distributed runs, after execute(): combine this iteration's vertex arrays with the other
  // ranks' and put the owned vertices that another rank changed into the next frontier; adds
  // the bytes reduced and the time to `stats`.
  virtual void exchange(Communicator&, IterationStats&) {
    throw Unsupported("this backend does not run with several ranks yet");
  }
  // The next frontier (the owned part of it, in a distributed run) becomes the current one.
  virtual void advance_frontier() = 0;
};

// An executor that also hands back the program's vertex arrays (internal ids) at the end.
template <class Value>
class ValuesExecutor : public Executor {
 public:
  // deltas is written for accumulative programs only. In a distributed run every rank gets
  // every vertex's value.
  virtual void read_values(Value* values, Value* deltas) = 0;
  // Distributed runs, before read_values(): collect what only the owners hold.
  virtual void finish(Communicator&) {}
  // What setting the run up placed on the device: the bytes copied before the first iteration
  // (edges in in-memory mode, or into the edge cache) and what the cache holds.
  virtual void report_setup(RunStats&) const {}
};

struct DriveOptions {
  TaskOptions tasks;
  std::uint32_t max_iterations = 0;  // 0: until no vertex is active
  std::function<bool()> cancelled;   // RunOptions::cancelled
  // A distributed run: the ranks agree on convergence and vertex values through it (the
  // executor processes only this rank's partitions). Null: one rank.
  Communicator* communicator = nullptr;
  // Exchanges in a dense iteration of a distributed run (EngineOptions::exchange_rounds).
  std::uint32_t exchange_rounds = 1;
};

// Iterates until the frontier is empty on every rank (or the limit); appends per-iteration
// stats. Returns true when it converged.
bool drive(Executor& executor, std::span<const Partition> partitions, const DriveOptions& options,
           RunStats& stats);

}  // namespace ooc::detail
