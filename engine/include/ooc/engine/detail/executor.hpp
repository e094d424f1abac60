#pragma once
// The seam between the engine's brain and its backends. The driver runs HyTGraph's loop —
// survey and choose engines, generate tasks, execute them, advance the frontier — and makes the
// iteration's scheduling decisions: the priority window, the frontier's totals and the direction.
// A backend (CPU or CUDA, one instantiation per program) measures what those decisions need,
// surveys and executes.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/engine/communicator.hpp"
#include "ooc/engine/frontier_loop.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/engine/priority.hpp"
#include "ooc/engine/program_contract.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/engine/tasks.hpp"
#include "ooc/kernels/bitmap.hpp"

namespace ooc::detail {

// The lists the pull direction reads: a symmetric graph's own (its out-lists are its in-lists),
// or a directed graph's in-lists (in_edge_view), with partitions of the same vertex ranges whose
// edges are those lists'.
struct Lists {
  const Graph& graph;
  std::span<const Partition> partitions;
};

// A rank of a distributed run as its executor sees it: the vertices it owns (it processes only
// their partitions, and pulls only into them), the host link through which the ranks agree
// on what must be the same everywhere (the pull floor, an accumulative program's messages on the
// CPU), and every rank's vertices laid out rank by rank (an accumulative program's deltas are
// summed by a reduce-scatter in that layout). All null: one rank.
struct RankView {
  const Bitmap* owned = nullptr;
  Communicator* link = nullptr;
  const OwnedLayout* layout = nullptr;
};

// What the driver needs to know of a run's executor to schedule its iterations; fixed for the run.
struct ScheduleFacts {
  vid_t vertices = 0;  // of the graph (Beamer's V / beta, direction.hpp)
  // Priority windows (priority.hpp): priority is on and the program is ordered.
  bool windowed = false;
  bool accumulative = false;             // a window holds a share of the pending delta, not edges
  double priority_fraction = 0;          // EngineOptions::priority_fraction (0: the default)
  std::uint64_t priority_min_edges = 0;  // EngineOptions::priority_min_edges
  // The program's urgency floor (urgency_floor()): every window admits no key above it.
  double urgency_floor = std::numeric_limits<double>::infinity();
  // The direction (direction.hpp): the run may pull (a PullProgram, MemoryPlan::pull), and
  // whether it must (EngineOptions::direction is pull: whenever both directions have vertices).
  bool may_pull = false;
  bool must_pull = false;
  bool pull_floor = false;       // the program has a pull floor (PullFloorProgram): Beamer's rule
  bool in_memory = false;        // every partition is on the device: only the edges read count
  std::uint32_t edge_bytes = 4;  // over the link per edge (8 with weights the program reads)
  std::uint32_t request_bytes = 0;  // CostConstants::request_bytes (link_bytes)
};

// The facts of a run of program P under these options and plan; both backends report them.
// `request_bytes`: the line a zero-copy request reads (adapting the costs moves the link's
// constants, never the line).
template <class P>
ScheduleFacts schedule_facts(const P& program, const EngineOptions& o, const MemoryPlan& plan,
                             vid_t vertices, bool may_pull, std::uint32_t edge_bytes,
                             std::uint32_t request_bytes) {
  return {.vertices = vertices,
          .windowed = o.priority == Priority::on && is_ordered<P>(),
          .accumulative = P::kind == ProgramKind::accumulative,
          .priority_fraction = o.priority_fraction,
          .priority_min_edges = o.priority_min_edges,
          .urgency_floor = urgency_floor(program),
          .may_pull = may_pull,
          .must_pull = o.direction == Direction::pull,
          .pull_floor = PullFloorProgram<P>,
          .in_memory = plan.in_memory,
          .edge_bytes = edge_bytes,
          .request_bytes = request_bytes};
}

// An iteration, as drive() calls it: [urgency_range, urgency_loads,] survey, [survey_pull,]
// set_direction, then execute [and exchange] one or more times, then advance_frontier.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual ScheduleFacts facts() const = 0;
  // Priority windows (facts().windowed). The range of urgency over the active vertices at or
  // under the urgency floor; none when no such vertex is active.
  virtual std::optional<UrgencyRange> urgency_range() = 0;
  // Those vertices' edges (and pending delta) per bucket of `range`, into `loads`
  // (kPriorityBuckets of them, zeroed).
  virtual void urgency_loads(const UrgencyRange& range, std::span<BucketLoad> loads) = 0;
  // Fills one survey per partition (activity, engine choice, priority) of the active vertices
  // `window` admits: the push direction's. The window holds for the whole iteration.
  virtual void survey(const PriorityWindow& window, std::span<PartitionSurvey> out) = 0;
  // facts().may_pull, after survey(): the floor (programs that have one), the vertices that would
  // gather, and one survey per partition of their lists. On a rank the gathering vertices are
  // its own, and the floor is the least over every rank's frontier.
  virtual void survey_pull(std::span<PartitionSurvey> out) = 0;
  // The iteration's direction, after the surveys: execute() runs the tasks made from that
  // direction's surveys.
  virtual void set_direction(bool pull) = 0;
  // Runs the tasks in order; adds edges processed, bytes and phase times to `stats`.
  virtual void execute(std::span<const Task> tasks, IterationStats& stats) = 0;
  // Distributed runs, between one round's execute() and its exchange(): start moving what the
  // next round's tasks (`next`) read that no vertex value decides, so that the link works while
  // the ranks exchange. execute(next) then finds it moved. Counts the bytes into `stats`.
  virtual void stage_ahead(std::span<const Task> /*next*/, IterationStats& /*stats*/) {}
  // Distributed runs, after execute(): combine this iteration's vertex arrays with the other
  // ranks' and put the owned vertices that another rank changed into the next frontier; adds
  // the bytes reduced and the time to `stats`.
  virtual void exchange(Communicator&, IterationStats&) {
    throw Unsupported("this backend does not run with several ranks yet");
  }
  // The next frontier (the owned part of it, in a distributed run) becomes the current one.
  virtual void advance_frontier() = 0;
  // After advance_frontier(), on one rank: an accumulative program's delta pending at the vertices
  // with out-edges, summed in double (PageRank's p, pagerank_bound.hpp); 0 for other programs.
  virtual double pending_with_edges() = 0;
  // The frontier loop (frontier_loop.hpp), called after survey() in place of the iteration's
  // tasks: runs levels from the current frontier as `loop` bounds them, appending one
  // IterationStats per level (frontier_loop set, numbered from 0) to `levels`, and leaves every
  // vertex still active in the current frontier. Returns false, running nothing, when the loop
  // does not serve this run (frontier_loop_serves); true with no level when the frontier was
  // already past loop.edges.
  virtual bool run_frontier_loop(const FrontierLoop& /*loop*/,
                                 std::vector<IterationStats>& /*levels*/) {
    return false;
  }
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
  // Exchanges in a dense iteration of a distributed run (EngineOptions::exchange_rounds); none
  // where the values are unused (ProgramInfo::values_unused).
  std::uint32_t exchange_rounds = 1;
  bool exchange_values = true;
  // A monotone program's window by value: EngineOptions::priority_delta as the run resolved it
  // (the automatic one chosen per program); 0: by the fraction.
  double priority_delta = 0;
  // An accumulative program on one rank: the run ends once the delta pending at the vertices with
  // out-edges is at most this, active vertices or not (PageRankOptions::l1,
  // pagerank_pending_for); 0: only when no vertex is active.
  double enough_pending = 0;
  // The frontier loop's bounds (edges 0: never asked for); its iterations are the most per stretch.
  FrontierLoop loop;
  // A frontier of at most this many edges pushes without surveying the pull direction
  // (EngineOptions::frontier_loop_edges, whether or not the loop serves the run); 0: always
  // surveyed.
  std::uint64_t tiny_edges = 0;
};

// Iterates until the frontier is empty on every rank (or the limit); appends per-iteration
// stats. Returns true when it converged.
bool drive(Executor& executor, std::span<const Partition> partitions, const DriveOptions& options,
           RunStats& stats);

}  // namespace ooc::detail
