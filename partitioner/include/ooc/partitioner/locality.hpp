#pragma once
// How well a vertex order serves the GPU's reads, measured on the CPU from the graph alone:
//   value sectors  a tile — up to kTileWidth consecutive targets of one list, what a warp reads
//                  in one step — then reads its targets' 4-byte values; a read costs the distinct
//                  32-byte sectors they lie in (SAGE §6: count(distinct(floor(sigma(n) /
//                  sector_wide)))). Summed over every tile of every list: what a PageRank
//                  iteration reads of the value array, and a BFS that reaches every vertex.
//   target lines   sampled BFS traversals, level by level (the active lists of an iteration): the
//                  128-byte lines of the targets array that the level's lists touch. Counted
//                  list by list (`list_lines`, what the zero-copy engine's request count models:
//                  lines_spanned) and once per level (`shared_lines`: a line that consecutive
//                  active lists share is read once, as when they are read together).
// An order that places co-accessed lists together (SAGE's reordering) lowers both.
#include <cstdint>

#include "ooc/partitioner/graph.hpp"

namespace ooc {

// A tile is at most a warp's 32 lanes wide (SAGE §5's tiles shrink from a block to a warp and
// below; a warp step of a long list reads 32 targets, one 128-byte line of them).
inline constexpr std::uint32_t kTileWidth = 32;
// Values a 32-byte memory sector holds: 4-byte vertex values (SAGE §6, "sector_wide").
inline constexpr std::uint32_t kSectorVertices = 32 / 4;
// The zero-copy read request: a 128-byte line (EMOGI §4; the cost model's m).
inline constexpr std::uint32_t kLineBytes = 128;

struct LocalityOptions {
  unsigned traversals = 4;  // BFS runs for the target lines (0: none)
  // Picks the BFS sources by the users' ids, so that every order of a graph gets the same ones.
  std::uint64_t seed = 1;
};

struct Locality {
  std::uint64_t tiles = 0;          // of every list
  std::uint64_t value_sectors = 0;  // distinct sectors per tile, summed
  std::uint32_t traversals = 0;     // BFS runs made (sources with out-edges)
  std::uint64_t lists_read = 0;     // lists with edges that the runs read
  std::uint64_t list_lines = 0;     // lines of those lists, list by list
  std::uint64_t shared_lines = 0;   // distinct lines per BFS level, summed

  double sectors_per_tile() const {
    return tiles == 0 ? 0.0 : static_cast<double>(value_sectors) / static_cast<double>(tiles);
  }
};

// Parallel (oneTBB); the same figures whatever the thread count.
Locality measure_locality(const Graph& graph, const LocalityOptions& options = {});

}  // namespace ooc
