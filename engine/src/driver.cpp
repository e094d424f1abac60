// HyTGraph's iteration (Fig. 5): cost-aware task generation, then task scheduling, until the
// frontier is empty. The scheduling decisions are made here, once for both backends: the
// priority window (priority.hpp), the frontier's totals and the direction (direction.hpp).
#include <algorithm>
#include <array>
#include <chrono>
#include <string>

#include "ooc/core/error.hpp"
#include "ooc/engine/detail/executor.hpp"
#include "ooc/engine/direction.hpp"

namespace ooc::detail {
namespace {

using Clock = std::chrono::steady_clock;

// An iteration is dense, and exchanges DriveOptions::exchange_rounds times, when its active
// edges are at least 1/kDenseShare of the graph's.
constexpr eid_t kDenseShare = 4;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Active vertices and edges summed over every rank: the same on all of them, so all agree on
// when to stop. Returns how many ranks were asked to stop (`stopping`: this one was).
std::uint64_t count_everywhere(IterationStats& it, Communicator* communicator,
                               bool stopping = false) {
  if (communicator == nullptr) return stopping ? 1 : 0;
  std::array<std::uint64_t, 3> counts{it.active_vertices, it.active_edges, stopping ? 1u : 0u};
  communicator->all_reduce(counts, Reduction::sum);
  it.active_vertices = counts[0];
  it.active_edges = counts[1];
  return counts[2];
}

// One rank's scheduling of an iteration: the executor measures (urgency, surveys) and is told
// what was chosen.
class Scheduler {
 public:
  Scheduler(Executor& executor, std::size_t partitions, Communicator* communicator,
            double priority_delta, std::uint64_t tiny_edges)
      : executor_(executor),
        communicator_(communicator),
        priority_delta_(priority_delta),
        tiny_edges_(tiny_edges),
        facts_(executor.facts()),
        push_(partitions),
        pull_(facts_.may_pull ? partitions : 0) {}

  // Chooses the window, surveys, chooses the direction and tells the executor; puts the
  // frontier's totals and the direction into `it`. Returns the surveys the tasks come from.
  std::span<const PartitionSurvey> plan(IterationStats& it) {
    auto start = Clock::now();
    window_ = window();
    it.window_seconds = since(start);
    executor_.survey(window_, push_);
    for (const PartitionSurvey& s : push_) {
      it.frontier_vertices += s.activity.active_vertices;
      it.frontier_edges += s.activity.active_edges;
    }
    start = Clock::now();
    it.pull = facts_.may_pull && !tiny(it) && pulls();
    executor_.set_direction(it.pull);
    it.direction_seconds = since(start);
    return it.pull ? pull_ : push_;
  }

  // Whether the last plan's window held some active vertices back.
  bool deferring() const { return window_.deferring; }

 private:
  // A frontier so small that pulling cannot win back its survey, a pass over every vertex: one of
  // the frontier loop's size (the first pulling level of a direction-optimising BFS on kron-26
  // had a frontier of millions of edges). It pushes, unless pull is forced; ranks survey anyway,
  // as they must all choose alike from every rank's frontier.
  bool tiny(const IterationStats& it) {
    if (facts_.must_pull || communicator_ != nullptr || it.frontier_edges > tiny_edges_ ||
        tiny_edges_ == 0)
      return false;
    direction_.pulled = false;
    direction_.last_frontier = it.frontier_vertices;
    return true;
  }
  // The most urgent buckets that hold the program's share of the work; every active vertex when
  // the program is not windowed or none is active. Either way, none above the urgency floor.
  PriorityWindow window() {
    PriorityWindow w = windowed();
    w.floor = facts_.urgency_floor;
    return w;
  }
  PriorityWindow windowed() {
    if (!facts_.windowed) return {};
    const std::optional<UrgencyRange> range = executor_.urgency_range();
    if (!range) return {};
    // Every active vertex equally urgent (a BFS level): one bucket would hold them all, and the
    // window would take it whole, so the second pass is not asked for.
    if (!(range->least > range->most)) return {.range = *range};
    std::array<BucketLoad, kPriorityBuckets> loads{};
    executor_.urgency_loads(*range, loads);
    if (priority_delta_ > 0 && !facts_.accumulative)
      return choose_delta_window(*range, loads, priority_delta_, facts_.priority_min_edges);
    return choose_window(*range, loads, facts_.accumulative,
                         priority_fraction(facts_.priority_fraction, facts_.accumulative),
                         facts_.priority_min_edges);
  }

  // After the push survey: surveys the pull direction and chooses. Ranks sum their surveys
  // first, so that all choose alike, from the whole frontier and every gathering vertex.
  bool pulls() {
    executor_.survey_pull(pull_);
    DirectionSurvey d = survey_directions(push_, pull_, facts_.edge_bytes, facts_.request_bytes);
    if (communicator_ != nullptr) {
      std::array<std::uint64_t, 6> sums{d.frontier_vertices, d.frontier_edges, d.pull_vertices,
                                        d.pull_edges,        d.push_bytes,     d.pull_bytes};
      communicator_->all_reduce(sums, Reduction::sum);
      d = {sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]};
    }
    if (facts_.must_pull) return d.frontier_vertices > 0 && d.pull_vertices > 0;
    return choose_pull(d, facts_.pull_floor, facts_.in_memory, facts_.vertices, direction_);
  }

  Executor& executor_;
  Communicator* communicator_;  // a distributed run's host link; null: one rank
  double priority_delta_;       // DriveOptions::priority_delta
  std::uint64_t tiny_edges_;    // DriveOptions::tiny_edges
  const ScheduleFacts facts_;
  PriorityWindow window_;
  std::vector<PartitionSurvey> push_, pull_;
  DirectionState direction_;
};

// After the last iteration the limit allows: whether any vertex is still active anywhere. It
// plans a whole iteration, as the loop would (the edge cache's measure of reuse counts it too).
bool any_active(Scheduler& scheduler, Communicator* communicator) {
  IterationStats it;
  for (const PartitionSurvey& s : scheduler.plan(it))
    it.active_vertices += s.activity.active_vertices;
  count_everywhere(it, communicator);
  return it.active_vertices > 0;
}

// Where each of `rounds` runs of the tasks ends, in task order: run r of R ends once (r / R)^2 of
// this rank's active edges are done, so the first exchange comes early (1/16 of the edges at R =
// 4), when the hubs' values, which every rank's later tasks need, are out. On two CPU ranks
// (kron-18, 118 partitions of 256 KiB) CC then processed 3% more edges than one rank, against 13%
// with runs of equal edges. Every rank gets `rounds` ends (some runs may be empty), so all make the
// same number of exchanges.
std::vector<std::size_t> round_ends(std::span<const Task> tasks,
                                    std::span<const PartitionSurvey> surveys,
                                    std::uint32_t rounds) {
  std::vector<eid_t> edges;
  eid_t total = 0;
  for (const Task& task : tasks) {
    eid_t e = 0;
    for (const std::uint32_t p : task.partitions)
      e += surveys[p].activity.active_edges;
    edges.push_back(e);
    total += e;
  }
  std::vector<std::size_t> ends;
  std::size_t t = 0;
  eid_t done = 0;
  for (std::uint32_t r = 1; r <= rounds; ++r) {
    const eid_t goal = total * r * r / (eid_t{rounds} * rounds);  // rounds <= 64: no overflow
    while (t < tasks.size() && (done < goal || r == rounds)) {
      done += edges[t];
      ++t;
    }
    ends.push_back(t);
  }
  return ends;
}

}  // namespace

bool drive(Executor& executor, std::span<const Partition> partitions, const DriveOptions& options,
           RunStats& stats) {
  Communicator* const communicator = options.communicator;
  Scheduler scheduler(executor, partitions.size(), communicator, options.priority_delta,
                      options.tiny_edges);
  bool loop_serves = options.loop.edges > 0 && communicator == nullptr;
  const eid_t graph_edges =
      partitions.empty() ? 0 : partitions.back().last_edge - partitions.front().first_edge;
  for (std::uint32_t iteration = 0;
       options.max_iterations == 0 || iteration < options.max_iterations; ++iteration) {
    const auto start = Clock::now();
    IterationStats it;
    it.iteration = iteration;
    const std::span<const PartitionSurvey> surveys = scheduler.plan(it);
    for (const PartitionSurvey& s : surveys) {
      if (s.activity.active_vertices == 0) continue;
      it.active_vertices += s.activity.active_vertices;
      it.active_edges += s.activity.active_edges;
      ++it.partitions[static_cast<std::size_t>(s.engine)];
    }
    const bool stopping = options.cancelled && options.cancelled();
    if (count_everywhere(it, communicator, stopping) > 0) {
      throw Cancelled("the run was cancelled after " + std::to_string(iteration) +
                      (iteration == 1 ? " iteration" : " iterations"));
    }
    if (it.active_vertices == 0) return true;
    if (loop_serves && !it.pull && it.active_edges <= options.loop.edges &&
        it.active_vertices <= options.loop.edges &&
        (!scheduler.deferring() || options.loop.delta > 0)) {
      const double surveyed = since(start);
      std::vector<IterationStats> levels;
      FrontierLoop loop = options.loop;
      if (options.max_iterations != 0)
        loop.iterations = std::min(loop.iterations, options.max_iterations - iteration);
      loop_serves = executor.run_frontier_loop(loop, levels);
      if (!levels.empty()) {
        // The survey that handed the frontier over is the first level's.
        levels.front().survey_seconds += surveyed;
        levels.front().seconds += surveyed;
        for (IterationStats& level : levels) {
          level.iteration = iteration++;
          stats.iterations.push_back(level);
        }
        --iteration;  // the loop's own step follows
        continue;
      }
    }
    const std::vector<Task> tasks = generate_tasks(surveys, options.tasks);
    it.tasks = static_cast<std::uint32_t>(tasks.size());
    it.survey_seconds = since(start);
    if (communicator == nullptr || !options.exchange_values) {
      executor.execute(tasks, it);
    } else {
      // Dense iterations only: a sparse one leaves little for the others to find first, and
      // each exchange costs a round trip between the ranks. The counts are every rank's, so
      // all ranks choose alike.
      const std::uint32_t rounds =
          kDenseShare * it.active_edges >= graph_edges ? options.exchange_rounds : 1;
      it.exchange_rounds = rounds;
      const std::vector<std::size_t> ends = round_ends(tasks, surveys, rounds);
      const std::span<const Task> all(tasks);
      std::size_t begin = 0;
      for (std::size_t r = 0; r < ends.size(); ++r) {
        executor.execute(all.subspan(begin, ends[r] - begin), it);
        begin = ends[r];
        if (r + 1 < ends.size()) executor.stage_ahead(all.subspan(begin, ends[r + 1] - begin), it);
        const auto exchange_start = Clock::now();
        executor.exchange(*communicator, it);
        it.exchange_seconds += since(exchange_start);
      }
    }
    executor.advance_frontier();
    const bool enough =
        options.enough_pending > 0 && executor.pending_with_edges() <= options.enough_pending;
    it.seconds = since(start);
    stats.iterations.push_back(it);
    if (enough) {
      stats.choices.push_back("ended after iteration " + std::to_string(iteration) +
                              ", once what pended was within the accuracy asked for");
      return true;
    }
  }
  return !any_active(scheduler, communicator);
}

}  // namespace ooc::detail
