#pragma once
// Turning an edge list into a CSR graph: optional symmetrisation, self-loop removal and
// de-duplication, weights from the file or generated, ids kept as given (V = max id + 1) or
// compacted on request. Parallel (oneTBB) and deterministic: every adjacency list ends up
// sorted by (target, weight), whatever the thread count.
#include <cstdint>
#include <string_view>

#include "ooc/partitioner/edge_list.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {

struct WeightSpec {
  enum class Kind { from_input, random, none };
  Kind kind = Kind::from_input;
  std::uint32_t low = 1, high = 64;  // random: uniform integers in [low, high]
  std::uint64_t seed = 1;
};

// "file" | "none" | "random:LO-HI" (integers, LO <= HI). Throws InvalidInput.
WeightSpec parse_weight_spec(std::string_view text, std::uint64_t seed);

struct BuildOptions {
  bool undirected = false;  // add (v, u) for every (u, v)
  bool remove_self_loops = true;
  bool remove_duplicates = true;  // of equal (u, v), keep the smallest weight
  bool compact_ids = false;       // drop the vertices without edges and renumber the others
                                  // 0..n-1 in their order: the new ids are the user's
  WeightSpec weights;
};

// Consumes the edge list (its memory is released as soon as it is no longer needed).
Graph build_graph(EdgeList&& edges, const BuildOptions& options);

}  // namespace ooc
