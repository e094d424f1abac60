#pragma once
// DeviceGraph's definition, for the CUDA sources.
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ooc/engine/cuda/nccl_link.hpp"
#include "ooc/engine/detail/cuda_backend.hpp"
#include "ooc/engine/exchange_cost.hpp"
#include "ooc/engine/ownership.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/kernels/cuda/group_lists.cuh"
#include "ooc/kernels/cuda/survey.cuh"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

class HostTier;

inline constexpr unsigned kStreams = kStagingBuffers + 1;  // the staging buffers and direct

// What every run needs and is slow to allocate (pinned host memory above all): made by the first
// run that needs it, reused by later ones, grown when a run needs more.
struct Workspace {
  struct Staging {
    DeviceArray<vid_t> targets;
    DeviceArray<std::uint32_t> weights;
    DeviceArray<std::uint8_t> compressed;  // a filter task's compressed lists, decoded to targets
    DeviceArray<std::uint8_t> packed;      // and its packed weights, unpacked to weights
    DeviceArray<vid_t> vertices;
    DeviceArray<eid_t> begin;
    DeviceArray<eid_t> list_begin;  // compaction over compressed lists: their byte offsets
    // Compaction: filled by the CPU, copied up. Over compressed lists the lists and packed
    // weights take the place of targets (and of weights, where the graph packs them).
    Buffer<vid_t> host_vertices, host_targets;
    Buffer<eid_t> host_begin, host_list_begin;
    Buffer<std::uint32_t> host_weights;
    Buffer<std::uint8_t> host_lists, host_packed;
    Event host_free;  // the last copy out of the host buffers has finished
  };
  MemoryPlan plan;
  bool weighted = false, compaction = false;
  std::array<Staging, kStagingBuffers> staging;
  std::array<Stream, kStreams> streams;  // the staging buffers', then the direct one
  Event work_ready;
  DeviceArray<cuda::PartitionCounters> counters;  // per partition; twice that when runs pull
  Buffer<cuda::PartitionCounters> host_counters;
  // Edges processed, urgency bounds, lines read by gathers, heavy counters.
  DeviceArray<unsigned long long> scalars;
  Buffer<unsigned long long> host_scalars;
  DeviceArray<cuda::DeviceBucket> buckets;
  Buffer<cuda::DeviceBucket> host_buckets;
  DeviceArray<vid_t> range_first, range_last;
  DeviceArray<std::uint64_t> range_prefix;
  DeviceArray<eid_t> range_shift;       // cached ranges: where their edges sit in the cache
  DeviceArray<eid_t> range_list_shift;  // and where their compressed lists do
  Buffer<vid_t> host_range_first, host_range_last;
  Buffer<std::uint64_t> host_range_prefix;
  Buffer<eid_t> host_range_shift, host_range_list_shift;
  Buffer<std::uint64_t> host_work;
  std::array<DeviceArray<unsigned char>, kStreams> heavy;  // a queue per stream
  std::uint64_t heavy_capacity = 0;

  bool fits(const MemoryPlan& p, bool with_compaction) const {
    return p.staging_edges <= plan.staging_edges && p.staging_vertices <= plan.staging_vertices &&
           p.compressed == plan.compressed && p.compressed_staging <= plan.compressed_staging &&
           p.packed_staging <= plan.packed_staging && (plan.pull || !p.pull) &&
           (compaction || !with_compaction);
  }
  std::uint64_t device_bytes() const;
};

// The edge cache (edge_cache.hpp): whole partitions kept on the device across iterations and
// runs, stored one after another in partition order, so that neighbouring cached partitions are
// neighbours in the cache too and a run of them needs one shift (RangeSet::shift, and
// RangeSet::list_shift for compressed lists). When the run reads compressed lists the cache keeps
// those (codec::kPadding after the last), not the raw targets, and more partitions fit.
struct EdgeCache {
  static constexpr eid_t kAbsent = ~eid_t{0};
  DeviceArray<vid_t> targets;             // raw lists, when not compressed
  DeviceArray<std::uint8_t> lists;        // compressed lists, when compressed
  DeviceArray<std::uint32_t> weights;     // when the run that filled it read weights, raw
  DeviceArray<std::uint8_t> packed;       // or packed (compressed lists, weights the graph packs)
  std::vector<std::uint32_t> partitions;  // ascending
  std::vector<eid_t> position;            // per partition: its first edge's index, or kAbsent
  std::vector<eid_t> list_position;       // per partition: its first compressed byte's index
  DeviceArray<std::uint8_t> cached;       // per partition, 1 when cached: the cost kernel reads it
  bool weighted = false, compressed = false;

  std::uint64_t bytes() const {
    return targets.bytes() + lists.bytes() + weights.bytes() + packed.bytes();
  }
  const std::uint8_t* lists_end() const { return lists.data() + lists.size(); }
};

struct DeviceGraph {
  int device = 0;
  std::string name;
  const Graph* graph = nullptr;
  DeviceArray<eid_t> offsets;
  DeviceArray<vid_t> partition_first;  // partitions + 1
  DeviceArray<eid_t> partition_edges;  // partitions
  // Compressed lists (EngineOptions::compressed and the graph has them): their offsets, and
  // each partition's compressed bytes; empty otherwise.
  DeviceArray<eid_t> compressed_offsets;
  DeviceArray<std::uint64_t> partition_compressed;
  // Device pointers to the pinned host edges and compressed lists (zero-copy reads them).
  const vid_t* mapped_targets = nullptr;
  const std::uint32_t* mapped_weights = nullptr;
  const std::uint8_t* mapped_compressed = nullptr;
  const std::uint8_t* mapped_packed_weights = nullptr;
  // In-memory mode: the edges copied once.
  DeviceArray<vid_t> resident_targets;
  DeviceArray<std::uint32_t> resident_weights;
  // Cache blocking of the pull direction (MemoryPlan::pull_blocks): the ranges of target ids the
  // resident lists are grouped by (1: as the graph holds them), and where each list's group for
  // every range after the first begins (cuda::ListCut).
  std::uint32_t list_blocks = 1;
  DeviceArray<std::uint32_t> block_cuts;
  std::uint64_t l2_bytes = 0;  // the GPU's L2
  // Unified policy: the edges in managed memory, read-mostly.
  vid_t* managed_targets = nullptr;
  std::uint32_t* managed_weights = nullptr;
  // A rank of a distributed run: the vertices it owns (empty on a single GPU), every rank's laid
  // out rank by rank (the pieces of OwnedLayout, and its block), the host ranges of its own edges
  // that it pinned in place, its link to the other ranks, and that link's set-up and times
  // (calibrate_exchange), which price the exchange's two forms.
  DeviceArray<std::uint64_t> owned;
  DeviceArray<OwnedLayout::Piece> layout_pieces;
  std::uint64_t layout_block = 0;
  bool layout_scatters = false;  // OwnedLayout::scatters
  std::vector<void*> registered;
  std::uint64_t registered_bytes = 0;
  std::vector<const void*> pinned_in_place;  // the host arrays whose ranges those are
  std::unique_ptr<NcclLink> nccl;
  ExchangeCalibration exchange;
  // The edge cache, which partitions may enter it (a rank's own; empty: all), and what each
  // partition's activity made the engines move over the link in the runs so far, cached or not.
  EdgeCache cache;
  std::vector<std::uint8_t> cacheable;
  std::vector<std::uint64_t> moved;
  // A directed graph's in-lists (add_in_lists): their offsets, partitions, mapped, resident and
  // managed copies, as the fields above are the out-lists'; null on a symmetric graph.
  std::unique_ptr<DeviceGraph> in_lists;

  DeviceGraph() = default;
  DeviceGraph(const DeviceGraph&) = delete;
  DeviceGraph& operator=(const DeviceGraph&) = delete;
  ~DeviceGraph();

  // Copies the edges to the device once; returns the bytes copied now (0 when already there).
  std::uint64_t make_resident();
  // Groups the resident lists by `blocks` ranges of target ids and records the cuts, unless they
  // are so already; `scratch` holds a run of whole partitions' edges (a staging buffer's).
  void group_lists(std::span<const Partition> partitions, std::uint32_t blocks,
                   Workspace::Staging& scratch);
  // The part of every resident list that range b of `list_blocks` holds.
  cuda::ListCut cut(std::uint32_t b) const;
  // Managed copy of the edges; refuses when they exceed the GPU's free memory, because
  // oversubscribed managed memory can hang a shared GPU.
  void make_managed();
  // A graph beyond host memory's lists for the cache: the host tier, which reads those of the
  // partitions in the file, a run of partitions at a time, and what each partition's bytes cost
  // to bring (choose_cached_partitions' byte_cost); the tier's reads are added to `read`.
  struct CacheSource {
    HostTier* tier = nullptr;
    std::span<const double> byte_cost;
    IterationStats* read = nullptr;
  };
  // Keeps the partitions that choose_cached_partitions picks for `capacity` bytes in the cache,
  // their compressed lists when `compressed`; returns the bytes copied now (0 when the cache
  // already held them). With a tier, a cache of the same settings that fits `capacity` stays as
  // it is unless the new choice holds more bytes: filling it again would read its partitions in
  // the file again.
  std::uint64_t fill_cache(std::span<const Partition> partitions, std::uint64_t capacity,
                           bool weighted, bool compressed, const CacheSource& source);
  // The workspace for a run's plan, (re)made when the plan needs more than the current one
  // holds. What the plan does not keep (resident edges out of core, the cache in memory or
  // beyond the plan's share) is freed first.
  Workspace& workspace(const MemoryPlan& plan, bool with_compaction, std::size_t heavy_item_bytes);
  // Device memory held between runs (workspace, resident edges, cache): a later run's budget
  // counts it as its own.
  std::uint64_t held_bytes() const;

  std::unique_ptr<Workspace> work;
};

}  // namespace ooc::detail
