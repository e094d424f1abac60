#pragma once
// Hub sort (HyTGraph §VI-A, after Zhang et al.'s hub sorting): score every vertex with
// H(v) = Dout(v) * Din(v) / Dmax^2, move the top `fraction` of vertices to the front in
// descending score order (ties by id), keep the rest in their natural order. The graph's
// original_ids records the permutation so that users keep seeing their own ids; hub_count
// says how many vertices are hubs. Adjacency lists keep their order, relabelled. Hubs are both
// likely to be activated (large in-degree) and feed many others (large out-degree), so the
// scheduler processes them first.
#include <span>

#include "ooc/partitioner/graph.hpp"

namespace ooc {

inline constexpr double kDefaultHubFraction = 0.08;  // HyTGraph §VI-A: "top 8%"

Graph hub_sort(Graph&& graph, double fraction = kDefaultHubFraction);

// The hubs that a fraction of the vertices makes, rounded; InvalidInput outside [0, 1].
vid_t hubs_for_fraction(vid_t vertices, double fraction);

// Each vertex's in-degree (its out-degree when the graph is symmetric).
Buffer<eid_t> in_degrees(const Graph& graph);

// hub_sort's order, new -> old ids, for reorderings that start from it (sage_reorder).
Buffer<vid_t> hub_order(const Graph& graph, vid_t hubs);
// The same from the out-lists' offsets (V + 1 entries) and the in-degrees (V), for a build that
// streams the lists and keeps only these (build_bounded).
Buffer<vid_t> hub_order(std::span<const eid_t> offsets, std::span<const eid_t> in_degrees,
                        vid_t hubs);

}  // namespace ooc
