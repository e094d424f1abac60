// The workspace of a graph's runs (device_graph.hpp, Workspace): staging, counters and task
// ranges, made for a run's memory plan and kept for later runs that fit it; and what a plan frees
// of the device graph before it is made.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/engine/priority.hpp"
#include "ooc/kernels/cuda/advance.cuh"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc::detail {
namespace {

// Frees what `plan` does not keep: resident edges out of core, the cache in memory or beyond the
// plan's share, resident in-lists the plan leaves out, pull blocks of another count.
void release_unplanned(DeviceGraph& d, const MemoryPlan& plan) {
  if (plan.in_memory || d.cache.bytes() > plan.cache_bytes) d.cache = EdgeCache{};
  if (!plan.in_memory) {
    d.resident_targets = {};
    d.resident_weights = {};
  }
  if (d.in_lists && (!plan.in_memory || plan.in_edge_bytes == 0)) {
    d.in_lists->resident_targets = {};
    d.in_lists->resident_weights = {};
  }
  if (plan.pull_blocks != d.list_blocks) d.block_cuts = {};  // group_lists() makes the plan's
}

// One staging buffer's device arrays and, for compaction, the pinned host buffers it fills.
void allocate_staging(Workspace::Staging& s, const MemoryPlan& plan, bool weighted,
                      bool with_compaction, HostMemory& pinned) {
  s.targets = DeviceArray<vid_t>(plan.staging_edges, "staging");
  s.weights = DeviceArray<std::uint32_t>(weighted ? plan.staging_edges : 0, "staging");
  s.compressed = DeviceArray<std::uint8_t>(plan.compressed_staging, "compressed staging");
  s.packed = DeviceArray<std::uint8_t>(plan.packed_staging, "packed weight staging");
  s.vertices = DeviceArray<vid_t>(plan.staging_vertices, "compaction staging");
  s.begin = DeviceArray<eid_t>(plan.staging_vertices + 1, "compaction staging");
  s.list_begin =
      DeviceArray<eid_t>(plan.compressed ? plan.staging_vertices + 1 : 0, "compaction staging");
  if (!with_compaction) return;
  s.host_vertices = Buffer<vid_t>::allocate(plan.staging_vertices, pinned);
  s.host_begin = Buffer<eid_t>::allocate(plan.staging_vertices + 1, pinned);
  if (plan.compressed) {
    s.host_list_begin = Buffer<eid_t>::allocate(plan.staging_vertices + 1, pinned);
    s.host_lists = Buffer<std::uint8_t>::allocate(plan.compressed_staging, pinned);
    s.host_packed = Buffer<std::uint8_t>::allocate(plan.packed_staging, pinned);
  } else {
    s.host_targets = Buffer<vid_t>::allocate(plan.staging_edges, pinned);
  }
  const bool raw_weights = weighted && plan.packed_staging == 0;
  s.host_weights = Buffer<std::uint32_t>::allocate(raw_weights ? plan.staging_edges : 0, pinned);
}

// The partition counters, scalars and priority buckets, on the device and pinned on the host.
void allocate_counters(Workspace& w, const MemoryPlan& plan, std::size_t partitions,
                       HostMemory& pinned) {
  // A run that may pull surveys both directions: a second set of counters.
  const std::size_t slots = std::max<std::size_t>(partitions, 1) * (plan.pull ? 2 : 1);
  w.counters = DeviceArray<cuda::PartitionCounters>(slots, "partition counters");
  w.host_counters = Buffer<cuda::PartitionCounters>::allocate(slots, pinned);
  w.scalars = DeviceArray<unsigned long long>(4 + kStreams, "counters");
  w.host_scalars = Buffer<unsigned long long>::allocate(4 + kStreams, pinned);
  w.buckets = DeviceArray<cuda::DeviceBucket>(kPriorityBuckets, "priority buckets");
  w.host_buckets = Buffer<cuda::DeviceBucket>::allocate(kPriorityBuckets, pinned);
}

// The task ranges' arrays, on the device and pinned on the host.
void allocate_ranges(Workspace& w, std::size_t partitions, HostMemory& pinned) {
  w.range_first = DeviceArray<vid_t>(partitions + 1, "task ranges");
  w.range_last = DeviceArray<vid_t>(partitions + 1, "task ranges");
  w.range_prefix = DeviceArray<std::uint64_t>(partitions + 2, "task ranges");
  w.range_shift = DeviceArray<eid_t>(partitions + 1, "task ranges");
  w.range_list_shift = DeviceArray<eid_t>(partitions + 1, "task ranges");
  w.host_range_first = Buffer<vid_t>::allocate(partitions + 1, pinned);
  w.host_range_last = Buffer<vid_t>::allocate(partitions + 1, pinned);
  w.host_range_prefix = Buffer<std::uint64_t>::allocate(partitions + 2, pinned);
  w.host_range_shift = Buffer<eid_t>::allocate(partitions + 1, pinned);
  w.host_range_list_shift = Buffer<eid_t>::allocate(partitions + 1, pinned);
}

}  // namespace

std::uint64_t Workspace::device_bytes() const {
  std::uint64_t sum = counters.bytes() + scalars.bytes() + buckets.bytes() + range_first.bytes() +
                      range_last.bytes() + range_prefix.bytes() + range_shift.bytes() +
                      range_list_shift.bytes();
  for (const Staging& s : staging)
    sum += s.targets.bytes() + s.weights.bytes() + s.compressed.bytes() + s.packed.bytes() +
           s.vertices.bytes() + s.begin.bytes() + s.list_begin.bytes();
  for (const auto& q : heavy)
    sum += q.bytes();
  return sum;
}

Workspace& DeviceGraph::workspace(const MemoryPlan& plan, bool with_compaction,
                                  std::size_t heavy_item_bytes) {
  release_unplanned(*this, plan);
  if (work && work->fits(plan, with_compaction)) return *work;
  work.reset();  // free the old one first: device memory is what the budget counts
  auto w = std::make_unique<Workspace>();
  HostMemory& pinned = pinned_memory(device);
  const Graph& g = *graph;
  const std::size_t partitions = partition_first.size() - 1;
  w->plan = plan;
  w->weighted = g.weighted();
  w->compaction = with_compaction;
  for (Workspace::Staging& s : w->staging)
    allocate_staging(s, plan, g.weighted(), with_compaction, pinned);
  allocate_counters(*w, plan, partitions, pinned);
  allocate_ranges(*w, partitions, pinned);
  if (with_compaction)
    w->host_work =
        Buffer<std::uint64_t>::allocate((std::uint64_t{g.num_vertices()} + 63) / 64 + 1, pinned);
  // A vertex is queued at most once per kernel, and at most E / kHeavyDegree vertices are heavy.
  w->heavy_capacity = g.num_edges() / cuda::kHeavyDegree + 1;
  for (auto& q : w->heavy)
    q = DeviceArray<unsigned char>(w->heavy_capacity * heavy_item_bytes, "heavy vertex queues");
  OOC_CUDA(cudaMemset(w->scalars.data(), 0, w->scalars.bytes()), "preparing the workspace");
  for (unsigned i = 0; i < kStagingBuffers; ++i)
    w->staging[i].host_free.record(w->streams[i].get(), "preparing staging");
  work = std::move(w);
  return *work;
}

}  // namespace ooc::detail
