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
    if (!active(surveys[i]) || surveys[i].engine != TransferEngine::filter) continue;
    const eid_t e = surveys[i].activity.edges;
    const bool extends = !tasks.empty() && tasks.back().partitions.back() + 1 == i &&
                         tasks.back().partitions.size() < o.filter_merge &&
                         edges + e <= o.staging_edges;
    if (!extends) {
      tasks.push_back(Task{TransferEngine::filter, {}, 0, o.priority});
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
void gather(std::span<const PartitionSurvey> surveys, TransferEngine engine,
            std::vector<Task>& tasks) {
  Task task{engine, {}, 0, false};
  for (std::uint32_t i = 0; i < surveys.size(); ++i) {
    if (active(surveys[i]) && surveys[i].engine == engine) {
      task.partitions.push_back(i);
      task.priority += surveys[i].priority;
    }
  }
  if (!task.partitions.empty()) tasks.push_back(std::move(task));
}

// The active resident partitions as up to `slices` tasks of about equal active edges, in partition
// order: a slice ends where the running sum of active edges first reaches the next multiple of
// total / slices (a partition that spans several multiples ends one slice); the last takes the
// rest, partitions without active edges after it included. Fewer slices when each would take
// fewer than min_slice_edges; one task, not reprocessed, when that leaves one (or one was asked).
void resident_slices(std::span<const PartitionSurvey> surveys, const TaskOptions& o,
                     std::vector<Task>& tasks) {
  const auto resident = [&](std::uint32_t i) {
    return active(surveys[i]) && surveys[i].engine == TransferEngine::resident;
  };
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < surveys.size(); ++i)
    if (resident(i)) total += surveys[i].activity.active_edges;
  std::uint64_t slices = o.resident_slices;
  if (o.min_slice_edges > 0) slices = std::min<std::uint64_t>(slices, total / o.min_slice_edges);
  if (slices <= 1) {
    gather(surveys, TransferEngine::resident, tasks);
    return;
  }
  std::uint64_t sum = 0, reached = 0;  // reached: the multiples of total / slices passed
  Task task{TransferEngine::resident, {}, 0, o.priority};
  for (std::uint32_t i = 0; i < surveys.size(); ++i) {
    if (!resident(i)) continue;
    task.partitions.push_back(i);
    task.priority += surveys[i].priority;
    sum += surveys[i].activity.active_edges;
    if (sum < total && sum * slices >= (reached + 1) * total && reached + 1 < slices) {
      tasks.push_back(std::move(task));
      task = Task{TransferEngine::resident, {}, 0, o.priority};
      reached = sum * slices / total;
    }
  }
  if (!task.partitions.empty()) tasks.push_back(std::move(task));
}

}  // namespace

std::vector<Task> generate_tasks(std::span<const PartitionSurvey> surveys,
                                 const TaskOptions& options) {
  std::vector<Task> tasks = filter_tasks(surveys, options);
  for (TransferEngine e :
       {TransferEngine::zerocopy, TransferEngine::compaction, TransferEngine::unified})
    gather(surveys, e, tasks);
  resident_slices(surveys, options, tasks);
  return tasks;
}

}  // namespace ooc
