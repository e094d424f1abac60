#pragma once
// Which rank owns which partitions when several ranks (one process driving one GPU, or the CPU
// backend) share a graph (docs: DESIGN "Several GPUs and several hosts"). A rank loads and pins
// only its own partitions' edges, so the split must balance edges, keep each rank's share in few
// long ranges of the file, and not give one rank all the hubs: hub sort (HyTGraph §VI-A) puts
// the hubs, which are active in most iterations, in the first partitions, and the rank that
// owned them all would be the one every other rank waits for.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "ooc/core/types.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc {

// Which rank processes each partition. Hub partitions (those whose first vertex is below
// hub_count) are dealt first, in runs of up to `group` neighbours (EngineOptions::filter_merge:
// what one filter task copies together; a rank whose hub partitions lay one by one between the
// others' would copy them one task each), largest run first, each to the rank with the fewest
// edges so far; the other partitions follow in contiguous runs in partition order, each rank
// filled up to its share of the total edges (ceil(total / ranks)), the last one taking what
// remains. No rank gets more than its share plus the largest run of hubs or the largest partition.
// Deterministic. Returns owner[p] in [0, ranks); a rank may own nothing when there are fewer
// partitions than ranks. Throws InvalidInput when ranks or group is 0.
std::vector<std::uint32_t> assign_partitions(std::span<const Partition> partitions, vid_t hub_count,
                                             std::uint32_t ranks, std::uint32_t group = 1);

// The vertex ranges [first_vertex, last_vertex) of `rank`'s partitions, in order, neighbours
// merged: what the rank reads of a .oocg file (OocgReadOptions::vertex_ranges), partitions without
// out-edges included (their vertices may have in-edges). Throws InvalidInput when owner and
// partitions differ in size.
std::vector<std::pair<vid_t, vid_t>> owned_vertex_ranges(std::span<const Partition> partitions,
                                                         std::span<const std::uint32_t> owner,
                                                         std::uint32_t rank);

// The ranks' vertices laid out rank by rank, for the exchanges in which each rank needs only its
// own vertices' sums (an accumulative program's deltas: a reduce-scatter, docs/distributed.md
// section 2): rank r's vertices, in vertex order, fill slots [r * block, r * block + its count) of
// an array of ranks * block slots, where block is the most vertices any rank owns (the slots past
// a rank's count are padding). The pieces hold every vertex once, in vertex order, none longer than
// kLayoutPieceVertices, so that one GPU block (or one oneTBB task) takes one piece.
inline constexpr vid_t kLayoutPieceVertices = vid_t{1} << 12;
struct OwnedLayout {
  struct Piece {
    vid_t first = 0, count = 0;  // vertices [first, first + count)
    std::uint32_t rank = 0;      // their owner
    std::uint64_t slot = 0;      // the first one's slot
  };
  std::uint64_t block = 0;
  std::vector<Piece> pieces;
  std::uint64_t slots(std::uint32_t ranks) const { return block * ranks; }
  // Whether a reduce-scatter of the slots moves fewer bytes than an all-reduce of the `vertices`
  // values: (N - 1) / N of the slots against 2 (N - 1) / N of the values. Ranks that own very
  // different numbers of vertices (a star's hub and its leaves) pad their blocks past that.
  bool scatters(std::uint32_t ranks, std::uint64_t vertices) const {
    return slots(ranks) < 2 * vertices;
  }
};
// Throws InvalidInput when ranks is 0, the sizes differ, or an owner is out of range.
OwnedLayout owned_layout(std::span<const Partition> partitions,
                         std::span<const std::uint32_t> owner, std::uint32_t ranks);

// A balance figure for reports: the largest rank's edges over the mean (1.0 = perfect, and for a
// graph without edges). Throws InvalidInput when ranks is 0, the sizes differ, or an owner is out
// of range.
double edge_imbalance(std::span<const Partition> partitions, std::span<const std::uint32_t> owner,
                      std::uint32_t ranks);

}  // namespace ooc
