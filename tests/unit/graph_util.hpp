#pragma once
// Helpers for tests that compare graphs: edge sets in the user's ids, small graphs by hand.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc::test {

using Edge = std::tuple<vid_t, vid_t, std::uint32_t>;  // (src, dst, weight or 0), user's ids

inline std::vector<Edge> edge_set(const Graph& g) {
  std::vector<Edge> edges;
  edges.reserve(g.num_edges());
  for (vid_t u = 0; u < g.num_vertices(); ++u) {
    for (eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      edges.emplace_back(g.original_id(u), g.original_id(g.targets[e]),
                         g.weights.empty() ? 0u : g.weights[e]);
    }
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

inline EdgeList edge_list(vid_t vertices, const std::vector<std::pair<vid_t, vid_t>>& pairs,
                          const std::vector<std::uint32_t>& weights = {}) {
  EdgeList list;
  list.num_vertices = vertices;
  list.sources = Buffer<vid_t>::allocate(pairs.size());
  list.targets = Buffer<vid_t>::allocate(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    list.sources[i] = pairs[i].first;
    list.targets[i] = pairs[i].second;
  }
  if (!weights.empty()) {
    list.weights = Buffer<std::uint32_t>::copy_of(weights);
    list.weight_type = WeightType::u32;
  }
  return list;
}

}  // namespace ooc::test
