#include "ooc/engine/tasks.hpp"

#include <algorithm>

namespace ooc {
namespace {

bool active(const PartitionSurvey& s) {
  return s.activity.active_vertices > 0;
}

// Runs of neighbouring filter partitions, at most k each and within the staging buffer.
std::vector<Task> filter_tasks(std::span<const PartitionSurvey> surveys, const TaskOptions& o) {
  std::vector<Task> tasks;
  eid_t edges = 0;
  for (std::uint32_t i = 0; i < surveys.size(); ++i) {
    if (!active(surveys[i]) || surveys[i].engine != Engine::filter) continue;
    const eid_t e = surveys[i].activity.edges;
    const bool extends = !tasks.empty() && tasks.back().partitions.back() + 1 == i &&
                         tasks.back().partitions.size() < o.filter_merge &&
                         edges + e <= o.staging_edges;
    if (!extends) {
      tasks.push_back(Task{Engine::filter, {}, 0, o.priority});
      edges = 0;
    }
    tasks.back().partitions.push_back(i);
    tasks.back().priority += surveys[i].priority;
    edges += e;
  }
  if (o.priority && o.ordered) {
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const Task& a, const Task& b) { return a.priority > b.priority; });
  }
  return tasks;
}

// All active partitions that chose `engine`, as one task.
void gather(std::span<const PartitionSurvey> surveys, Engine engine, std::vector<Task>& tasks) {
  Task task{engine, {}, 0, false};
  for (std::uint32_t i = 0; i < surveys.size(); ++i) {
    if (active(surveys[i]) && surveys[i].engine == engine) {
      task.partitions.push_back(i);
      task.priority += surveys[i].priority;
    }
  }
  if (!task.partitions.empty()) tasks.push_back(std::move(task));
}

}  // namespace

std::vector<Task> generate_tasks(std::span<const PartitionSurvey> surveys,
                                 const TaskOptions& options) {
  std::vector<Task> tasks = filter_tasks(surveys, options);
  for (Engine e : {Engine::zerocopy, Engine::compaction, Engine::unified, Engine::resident})
    gather(surveys, e, tasks);
  return tasks;
}

}  // namespace ooc
