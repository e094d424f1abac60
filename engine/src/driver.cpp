// HyTGraph's iteration (Fig. 5): cost-aware task generation, then task scheduling, until the
// frontier is empty.
#include <chrono>

#include "ooc/engine/detail/executor.hpp"

namespace ooc::detail {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

bool drive(Executor& executor, std::span<const Partition> partitions, const DriveOptions& options,
           RunStats& stats) {
  std::vector<PartitionSurvey> surveys(partitions.size());
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
    if (it.active_vertices == 0) return true;
    const std::vector<Task> tasks = generate_tasks(surveys, partitions, options.tasks);
    it.tasks = static_cast<std::uint32_t>(tasks.size());
    it.survey_seconds = since(start);
    executor.execute(tasks, it);
    executor.advance_frontier();
    it.seconds = since(start);
    stats.iterations.push_back(it);
  }
  std::vector<PartitionSurvey> last(partitions.size());
  executor.survey(last);
  for (const PartitionSurvey& s : last) {
    if (s.activity.active_vertices > 0) return false;
  }
  return true;
}

}  // namespace ooc::detail
