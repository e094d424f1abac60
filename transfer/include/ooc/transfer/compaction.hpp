#pragma once
// The CPU half of ExpTM-compaction (HyTGraph §III-A, after Subway): gather the active vertices'
// neighbour lists (and weights) into a staging buffer, with a new offset per vertex, so that
// one explicit copy moves only active edges. oneTBB in both steps: a parallel scan of the
// degrees places every list, then the lists are copied in parallel (long lists split). The
// CUDA backend fills pinned staging with it; the CPU backend, host staging.
#include <cstddef>
#include <cstdint>
#include <span>

#include "ooc/partitioner/graph.hpp"

namespace ooc {

// Where a batch goes. The caller owns the memory; capacities bound what one batch may take.
struct CompactionBuffer {
  vid_t* vertices = nullptr;         // vertex_capacity
  eid_t* offsets = nullptr;          // vertex_capacity + 1, relative to the batch
  vid_t* targets = nullptr;          // edge_capacity
  std::uint32_t* weights = nullptr;  // edge_capacity, or null to leave weights behind
  std::size_t vertex_capacity = 0;
  eid_t edge_capacity = 0;
};

struct CompactedBatch {
  std::size_t vertices = 0;  // taken from the front of `active`
  eid_t edges = 0;
};

// Where compact reads the lists: the raw targets, or the compressed copy (graph.compressed) and
// its packed weights, if any, decoded into the buffer (the CPU backend's zero-copy tasks over
// compressed lists).
enum class ListSource { raw, compressed };

// Takes vertices from the front of `active` while their lists fit and returns how many it took
// and how many edges it wrote. Throws OutOfMemory if the first list alone exceeds the buffer.
CompactedBatch compact(const Graph& graph, std::span<const vid_t> active,
                       const CompactionBuffer& out, ListSource from = ListSource::raw);

}  // namespace ooc
