#pragma once
// What a run needs on the device, decided before anything is allocated (as CUB's two-phase
// calls make memory explicit): vertex data, frontiers, staging, and the edges themselves when
// they all fit the budget (in-memory mode), else what is left for the edge cache. Too small a
// budget is refused with the numbers.
#include <cstdint>
#include <span>
#include <string>

#include "ooc/engine/exchange_cost.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/partitioner/graph.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc {

// Filter tasks take the staging buffers in turn, so a copy waits only for the kernels of the task
// that used its buffer kStagingBuffers tasks before. With 2, each task's kernel tail stalled the
// link; kron-26 CC out of core on an H100 took 136 ms with 2, 110 with 3 and 100 with 4
// (docs/performance-log.md, "Cached lists pull; four staging buffers").
inline constexpr unsigned kStagingBuffers = 4;
// The most bytes one entry of the CUDA backend's heavy-vertex queues takes (cuda::HeavyItem).
inline constexpr std::uint64_t kHeavyItemBytes = 56;

struct MemoryPlan {
  bool in_memory = false;
  // The run may pull (options.direction is not push; the caller has set it to push where the
  // program, the graph or the ranks rule pulling out): the vertices that gather, and an
  // accumulative program's messages, are vertex data too.
  bool pull = false;
  eid_t staging_edges = 0;           // per staging buffer
  std::size_t staging_vertices = 0;  // per compaction batch
  std::uint64_t vertex_bytes = 0;    // offsets, values (and deltas), frontiers, active lists
  std::uint64_t staging_bytes = 0;   // all staging buffers
  std::uint64_t edge_bytes = 0;      // the whole edge data (targets and weights)
  // The in-lists' (sources and weights), when the run may pull on a directed graph: resident
  // beside the edges in in-memory mode.
  std::uint64_t in_edge_bytes = 0;
  std::uint64_t budget = 0;          // 0: no device memory limit (CPU backend)
  std::uint64_t cache_bytes = 0;     // out of core: the budget left for the edge cache
  std::uint64_t exchange_bytes = 0;  // a GPU rank: the agreed copy, changes and sparse pairs
  // A GPU rank's room for its changed pairs in the sparse form (each rank's as many again are
  // gathered): every vertex when forced, what Exchange::automatic can use (its calibrated
  // crossover, automatic_pair_capacity), none for dense.
  std::uint64_t pair_capacity = 0;
  // Filter tasks move compressed lists (EngineOptions::compressed and the graph has them): each
  // staging buffer also holds a task's compressed bytes, and the device the compressed offsets.
  bool compressed = false;
  std::uint64_t compressed_staging = 0;  // bytes per staging buffer
  // And a task's packed weights, when the graph packs them (codec::packed_weight).
  std::uint64_t packed_staging = 0;  // bytes per staging buffer
  // In-memory mode, when the run may pull: the ranges of vertex ids its gathers are blocked by
  // (EngineOptions::pull_blocks; 1: not blocked), and where each list's part for each range
  // begins, 4 bytes per vertex for every range after the first. Gathers over in-lists are not
  // blocked.
  std::uint32_t pull_blocks = 1;
  std::uint64_t block_bytes = 0;

  std::uint64_t needed() const {
    return vertex_bytes + staging_bytes + exchange_bytes +
           (in_memory ? edge_bytes + in_edge_bytes + block_bytes : 0);
  }
};

// The pull blocks an in-memory run that may pull uses for `asked` (EngineOptions::pull_blocks):
// asked itself, or for 0 as many ranges of equal vertex ids as it takes for each range's values
// (value_bytes each) to fit half of `l2_bytes` (the GPU's L2; 0: no blocking); at most
// kMaxPullBlocks, and never more than there are vertices.
std::uint32_t pull_blocks_for(std::uint64_t vertices, std::uint32_t value_bytes,
                              std::uint32_t asked, std::uint64_t l2_bytes);

// value_bytes: sizeof(Value); accumulative programs keep a delta per vertex too. gpu_ranks: the
// rank count of a distributed run on GPUs, whose exchange arrays the plan counts (0: none; see
// docs/distributed.md, section 1), with `exchange`, what the ranks measured when they joined, for
// the room Exchange::automatic needs, and `change_slots`, the slots an accumulative program's
// changes take (the ranks' layout when it scatters, OwnedLayout::slots; 0: one per vertex).
// l2_bytes: the GPU's L2 (0: the CPU backend), for the pull blocks, which an in-memory run takes
// only when the budget also holds their offsets. `tiered`: a graph beyond host memory (HostTier),
// which has no in-memory mode (it copies every list), only the edge cache. Throws OutOfMemory when
// vertex data, staging and the exchange exceed a non-zero budget.
MemoryPlan plan_memory(const Graph& graph, std::span<const Partition> partitions,
                       std::uint32_t value_bytes, bool accumulative, const EngineOptions& options,
                       std::uint64_t budget, std::uint32_t gpu_ranks = 0,
                       std::uint64_t l2_bytes = 0, const ExchangeCalibration& exchange = {},
                       std::uint64_t change_slots = 0, bool tiered = false);

}  // namespace ooc
