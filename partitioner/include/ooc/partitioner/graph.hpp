#pragma once
// The graph model: compressed sparse rows of out-edges, 32-bit vertex ids, 64-bit edge offsets,
// optional 32-bit weights in their own array. Internal ids may differ from the user's (hub sort
// and SAGE's reordering permute them); `original_ids` maps back so that everything users see is
// in their own ids.
#include <cstdint>
#include <span>

#include "ooc/core/buffer.hpp"
#include "ooc/core/types.hpp"

namespace ooc {

// A compressed copy of the targets (ooc/core/codec.hpp): vertex v's list is bytes[offsets[v] ..
// offsets[v + 1]), and offsets[V] bytes are followed by codec::kPadding zero bytes. With u32
// weights that pack into fewer than 32 bits, also the weights packed (codec::packed_weight).
struct CompressedTargets {
  Buffer<eid_t> offsets;  // num_vertices + 1 entries, or empty: no compressed copy
  Buffer<std::uint8_t> bytes;
  // codec::packed_bytes(E, weight_width) bytes and codec::kPadding zero bytes, or empty.
  Buffer<std::uint8_t> packed_weights;
  std::uint32_t weight_width = 0, weight_base = 0;

  bool packs_weights() const noexcept { return !packed_weights.empty(); }
  // Bits per weight as the engines move them: packed, or 32 raw.
  std::uint32_t weight_bits() const noexcept { return packs_weights() ? weight_width : 32; }

  bool empty() const noexcept { return offsets.empty(); }
  std::uint64_t size_bytes() const noexcept { return empty() ? 0 : offsets[offsets.size() - 1]; }
  // The bytes of the lists of vertices [first, last).
  std::uint64_t range_bytes(vid_t first, vid_t last) const noexcept {
    return offsets[last] - offsets[first];
  }
};

// The same edges grouped by target (partition-tool --in-edges): vertex v's in-neighbours are
// sources[offsets[v] .. offsets[v + 1]), in (source, weight) order, each with its edge's weight.
// The pull direction reads them on a directed graph; a symmetric graph needs none, its out-lists
// being its in-lists.
struct InEdges {
  Buffer<eid_t> offsets;          // num_vertices + 1 entries, or empty: none
  Buffer<vid_t> sources;          // num_edges entries
  Buffer<std::uint32_t> weights;  // empty, or num_edges entries, as Graph::weights

  bool empty() const noexcept { return offsets.empty(); }
  eid_t degree(vid_t v) const noexcept { return offsets[v + 1] - offsets[v]; }
};

struct Graph {
  Buffer<eid_t> offsets;  // num_vertices + 1 entries, offsets[0] = 0
  // num_edges entries; empty in a compressed-only graph (has_raw_lists), whose lists only
  // `compressed` holds.
  Buffer<vid_t> targets;
  // Empty, or num_edges entries (f32 stored as bits); also empty in a compressed-only graph
  // whose compressed copy packs the weights (float weights, and a range of 32 bits, stay raw).
  Buffer<std::uint32_t> weights;
  WeightType weight_type = WeightType::none;
  Buffer<vid_t> original_ids;    // internal id -> user's id; empty means identity
  std::uint32_t hub_count = 0;   // internal ids [0, hub_count) are the hubs (hub sort)
  bool sage_ordered = false;     // sage_reorder placed co-accessed lists together
  bool symmetric = false;        // every edge (u, v) has its reverse (v, u)
  CompressedTargets compressed;  // optional (partition-tool --compress); lists are then sorted
  InEdges in_edges;              // optional (partition-tool --in-edges)

  vid_t num_vertices() const noexcept {
    return offsets.empty() ? 0 : static_cast<vid_t>(offsets.size() - 1);
  }
  eid_t num_edges() const noexcept { return offsets.empty() ? 0 : offsets[offsets.size() - 1]; }
  bool weighted() const noexcept { return weight_type != WeightType::none; }
  // False for a compressed-only graph (partition-tool --compress-only): its raw targets (and
  // its raw weights, when packed) are left out, and whatever reads lists decodes the compressed
  // copy (decode_raw_lists restores them).
  bool has_raw_lists() const noexcept { return targets.size() == num_edges(); }
  bool has_in_edges() const noexcept { return !in_edges.empty(); }
  eid_t degree(vid_t v) const noexcept { return offsets[v + 1] - offsets[v]; }
  std::span<const vid_t> neighbors(vid_t v) const noexcept {
    return {targets.data() + offsets[v], static_cast<std::size_t>(degree(v))};
  }
  vid_t original_id(vid_t v) const noexcept { return original_ids.empty() ? v : original_ids[v]; }
  // Bytes of edge data per edge: the target, plus the weight when there is one.
  std::uint32_t bytes_per_edge() const noexcept { return weighted() ? 8u : 4u; }
};

// Checks the structure: offsets start at 0, never decrease and end at num_edges; every target is
// a vertex; weights have one entry per edge; original_ids is a permutation; the compressed copy,
// when there is one, decodes to the targets (check_compressed); the in-edges, when there are
// some, are in_edges_of(graph). Throws FormatError naming the first problem found.
void validate(const Graph& graph);

// The graph's edges grouped by target, in (source, weight) order (parallel, and the same whatever
// the thread count).
InEdges in_edges_of(const Graph& graph);

// A graph whose lists are `graph`'s in-lists (needs has_in_edges()): offsets, targets and weights
// are views of graph.in_edges, valid while `graph` holds them; same vertex count, weight type and
// hub count, no compressed copy. The pull direction reads it as the push direction reads `graph`.
Graph in_edge_view(const Graph& graph);

// The inverse of original_ids: user's id -> internal id (empty when ids are not permuted).
Buffer<vid_t> internal_ids(const Graph& graph);

}  // namespace ooc
