#pragma once
// Renumbering the vertices of a graph, as hub sort and SAGE's reordering do: each list moves to
// its vertex's new place with its targets renamed, and original_ids is composed with the order
// so that users keep their ids.
#include <cstdint>
#include <span>

#include "ooc/core/progress.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc::detail {

// order[i] is the old id of new vertex i (a permutation of the vertices). Lists keep their
// order, renamed, or with `sort` are sorted by their new targets while still in cache; weights
// move with them; a compressed copy is not carried over. Advances `progress` by twice the edges.
Graph relabel(const Graph& graph, std::span<const vid_t> order, std::uint32_t hub_count, bool sort,
              ProgressStep& progress);

}  // namespace ooc::detail
