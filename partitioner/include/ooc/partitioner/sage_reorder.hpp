#pragma once
// Sampling-based reordering (SAGE, SIGMOD'21, §6), done once by partition-tool on the CPU. A
// tile — up to 32 consecutive targets of one list, what a warp reads in one step — then reads
// its targets' values; it costs the distinct 32-byte sectors they lie in. The order that costs
// least is NP-hard to find (SAGE Theorem 6.1), so rounds of three sampled stages move vertices
// toward their co-members (targets read in the same tile):
//   1. sample tile accesses and keep, per vertex, a few of its co-members;
//   2. binary-search a better index for each vertex: the half of its range that holds more of
//      its co-members, until the range is one sector;
//   3. sample tile accesses again and count, per vertex, the tiles where it has a sector-mate
//      now and those where the sector found holds a co-member; a vertex that gains more than
//      it keeps moves there (sage_reorder.cpp says how, and where this departs from the paper).
// Co-accessed vertices end up in the same sectors, so a tile reads fewer sectors of the values,
// and vertices that turn active together have neighbouring lists, so the zero-copy engine's
// active lists share more lines.
//
// Hubs: the engine schedules hub partitions first and spreads them over ranks, and both rely on
// the hubs being internal ids [0, hub_count). So hub sort comes first and SAGE's rounds move
// vertices only inside the hubs and inside the rest: hub_count stays true, and co-accessed hubs
// (most of a power-law graph's tiles) are packed into sectors among themselves. Users keep their
// ids (original_ids is composed). Lists keep their order, renamed, unless they were sorted:
// then they are sorted again, and a compressed copy is made again.
//
// Deterministic for a seed, whatever the thread count: every sample is a hash of (seed, round,
// use, edge position), and every parallel update is a sum or a minimum.
#include <cstdint>

#include "ooc/partitioner/graph.hpp"
#include "ooc/partitioner/hub_sort.hpp"

namespace ooc {

// Why these defaults (docs/reordering.md; the figures are in docs/performance-log.md, "Figures
// moved from code comments"): on a grid most of the gain in value sectors per tile comes in the
// first rounds, and sampling every tile (the paper's |E|) gains more but makes each round several
// times as costly. 2 rounds at a quarter of the tiles keep most of 4 rounds' gain for two thirds
// of their time, and keep the reordering under the time the graph takes to generate.
inline constexpr unsigned kDefaultSageRounds = 2;
inline constexpr double kDefaultSageSample = 0.25;  // SAGE §7.1 samples |E| edges: 1.0

struct SageOptions {
  double hub_fraction = kDefaultHubFraction;  // hub sort first; 0 keeps the graph's hub_count
  unsigned rounds = kDefaultSageRounds;
  double sample = kDefaultSageSample;  // the share of tiles each stage samples, in (0, 1]
  std::uint64_t seed = 1;
};

// Throws InvalidInput for a hub fraction outside [0, 1] or a sample outside (0, 1].
Graph sage_reorder(Graph&& graph, const SageOptions& options = {});

}  // namespace ooc
