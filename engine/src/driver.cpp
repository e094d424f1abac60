// HyTGraph's iteration (Fig. 5): cost-aware task generation, then task scheduling, until the
// frontier is empty.
#include <array>
#include <chrono>

#include "ooc/engine/detail/executor.hpp"

namespace ooc::detail {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Active vertices and edges summed over every rank: the same on all of them, so all agree on
// when to stop.
void count_everywhere(IterationStats& it, Communicator* communicator) {
  if (communicator == nullptr) return;
  std::array<std::uint64_t, 2> counts{it.active_vertices, it.active_edges};
  communicator->all_reduce(counts, Reduction::sum);
  it.active_vertices = counts[0];
  it.active_edges = counts[1];
}

bool any_active(Executor& executor, std::size_t partitions, Communicator* communicator) {
  std::vector<PartitionSurvey> last(partitions);
  executor.survey(last);
  IterationStats it;
  for (const PartitionSurvey& s : last)
    it.active_vertices += s.activity.active_vertices;
  count_everywhere(it, communicator);
  return it.active_vertices > 0;
}

}  // namespace

bool drive(Executor& executor, std::span<const Partition> partitions, const DriveOptions& options,
           RunStats& stats) {
  std::vector<PartitionSurvey> surveys(partitions.size());
  Communicator* const communicator = options.communicator;
  for (std::uint32_t iteration = 0;
       options.max_iterations == 0 || iteration < options.max_iterations; ++iteration) {
    const auto start = Clock::now();
    IterationStats it;
    it.iteration = iteration;
    executor.survey(surveys);
    for (const PartitionSurvey& s : surveys) {
      if (s.activity.active_vertices == 0) continue;
      it.active_vertices += s.activity.active_vertices;
      it.active_edges += s.activity.active_edges;
      ++it.partitions[static_cast<std::size_t>(s.engine)];
    }
    count_everywhere(it, communicator);
    if (it.active_vertices == 0) return true;
    const std::vector<Task> tasks = generate_tasks(surveys, partitions, options.tasks);
    it.tasks = static_cast<std::uint32_t>(tasks.size());
    it.survey_seconds = since(start);
    executor.execute(tasks, it);
    if (communicator != nullptr) {
      const auto exchange_start = Clock::now();
      executor.exchange(*communicator, it);
      it.exchange_seconds = since(exchange_start);
    }
    executor.advance_frontier();
    it.seconds = since(start);
    stats.iterations.push_back(it);
  }
  return !any_active(executor, partitions.size(), communicator);
}

}  // namespace ooc::detail
