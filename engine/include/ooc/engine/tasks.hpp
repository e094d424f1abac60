#pragma once
// Task generation and ordering (HyTGraph Algorithm 1 lines 15-24, §VI-A and §VI-B). Each
// iteration the survey gives every active partition an engine; here they become tasks:
//   filter      runs of neighbouring filter partitions, up to k per task and within staging
//   zerocopy    all zero-copy partitions' active vertices in one task (one kernel)
//   compaction  all compaction partitions' active vertices in one task (batched by staging)
//   unified: one task
//   resident   one task, or up to `resident_slices` tasks of about equal active edges in
//              partition order, each processed once more like a filter task (PageRank, CC)
// Order: filter tasks first, then zero-copy, then compaction (whose CPU work overlaps the
// others on the GPU path). With priority on, filter tasks go in priority order — for ordered
// programs the most urgent first (priority.hpp), otherwise the natural order, which puts hub
// partitions first (hub sort gave hubs the lowest ids) — and each is processed once more while
// its data is loaded.
#include <cstdint>
#include <span>
#include <vector>

#include "ooc/engine/cost_model.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc {

struct PartitionSurvey {
  PartitionActivity activity;
  double priority = 0;  // larger runs first: pending delta (accumulative), -urgency (monotone)
  TransferEngine engine = TransferEngine::filter;
};

struct Task {
  TransferEngine engine = TransferEngine::filter;
  std::vector<std::uint32_t> partitions;  // ascending; contiguous for filter tasks
  double priority = 0;
  bool reprocess = false;  // process newly activated vertices once more while loaded
};

struct TaskOptions {
  unsigned filter_merge = 4;  // k
  eid_t staging_edges = 0;    // a filter task's edges must fit one staging buffer
  bool priority = true;
  bool ordered = false;  // order filter tasks by priority (programs that are ordered)
  // The resident partitions (in GPU memory or in the edge cache) as up to this many tasks, run
  // one after another, each processed once more over the vertices it activated when priority is
  // on: a later slice starts from what the earlier ones pushed in the same iteration
  // (EngineOptions::resident_slices). 1: one task.
  unsigned resident_slices = 1;
  // No slice takes fewer active edges (EngineOptions::min_slice_edges); 0: no minimum.
  eid_t min_slice_edges = 0;
};

// surveys[i].activity.edges: partition i's edges in the lists this iteration reads (the
// out-lists, or the in-lists when it pulls on a directed graph), which bound a filter task.
std::vector<Task> generate_tasks(std::span<const PartitionSurvey> surveys,
                                 const TaskOptions& options);

}  // namespace ooc
