#pragma once
// The CPU half of ExpTM-compaction (HyTGraph §III-A, after Subway): gather the active vertices'
// neighbour lists (and weights) into a staging buffer, with a new offset per vertex, so that
// one explicit copy moves only active edges. oneTBB in both steps: a parallel scan of the
// degrees places every list, then the lists are copied in parallel (long lists split). The
// CUDA backend fills pinned staging with it; the CPU backend, host staging. Over compressed
// lists (compact_compressed) the CPU gathers the lists' bytes as they are and the GPU decodes
// them, so the copy moves compressed bytes.
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

// Where a batch of compressed lists goes: vertex i's list (offsets[i + 1] - offsets[i] edges)
// at lists[list_offsets[i] .. list_offsets[i + 1]), followed by codec::kPadding zero bytes; its
// weights, when wanted, packed at the graph's width from bit offsets[i] * width of
// packed_weights (the graph packs them), or raw from weights[offsets[i]] (it does not).
struct CompressedBuffer {
  vid_t* vertices = nullptr;               // vertex_capacity
  eid_t* offsets = nullptr;                // vertex_capacity + 1
  eid_t* list_offsets = nullptr;           // vertex_capacity + 1
  std::uint8_t* lists = nullptr;           // list_capacity + codec::kPadding
  std::uint8_t* packed_weights = nullptr;  // codec::packed_bytes(edge_capacity) + kPadding
  std::uint32_t* weights = nullptr;        // edge_capacity
  std::size_t vertex_capacity = 0;
  eid_t edge_capacity = 0;  // edges the batch may decode to
  std::uint64_t list_capacity = 0;
};

struct CompressedBatch {
  std::size_t vertices = 0;
  eid_t edges = 0;
  std::uint64_t list_bytes = 0;    // without the padding
  std::uint64_t weight_bytes = 0;  // packed (without the padding) or raw; 0 without weights
};

// Takes vertices from the front of `active` while their lists fit both capacities and gathers
// their compressed bytes (graph.compressed). Throws OutOfMemory if the first list alone does
// not fit.
CompressedBatch compact_compressed(const Graph& graph, std::span<const vid_t> active,
                                   const CompressedBuffer& out);

}  // namespace ooc
