#pragma once
// Synthetic graphs. Each is deterministic for a seed, whatever the number of threads: edge i
// (road: vertex i's links) is drawn from a counter-based generator keyed by (seed, i), never from
// a shared stream.
//   kronecker  Graph500 R-MAT, A=.57 B=.19 C=.19, 2^scale vertices, edge_factor * 2^scale edges,
//              vertex labels randomly permuted as the Graph500 specification asks
//   uniform    GAP's "urand": both endpoints uniform in [0, 2^scale)
//   grid       rows x cols 2-D mesh, 4-neighbour (high diameter)
//   road       road-network-like: a jittered near-square lattice of `vertices` vertices, a random
//              spanning tree of it plus random lattice links to a mean degree of 2.5, each link
//              weighted by the Euclidean distance of its ends (100 a lattice step, at least 1);
//              BFS depth from vertex 0 about 2 sqrt(vertices) (road_generator.cpp)
//   star, chain, complete, empty: the tiny shapes tests need
// The undirected shapes (grid, road, star, chain, complete) list each link once and set
// symmetric_input, so the builder adds the reverse edges and marks the graph symmetric. Only road
// lists weights (u32, the same for both directions); the others list none.
#include <cstdint>
#include <string>

#include "ooc/partitioner/edge_list.hpp"

namespace ooc {

EdgeList generate_kronecker(unsigned scale, unsigned edge_factor, std::uint64_t seed);
EdgeList generate_uniform(unsigned scale, unsigned edge_factor, std::uint64_t seed);
EdgeList generate_grid(std::uint32_t rows, std::uint32_t cols);
EdgeList generate_star(vid_t vertices);      // 0 - i for every i > 0
EdgeList generate_chain(vid_t vertices);     // i - i+1
EdgeList generate_complete(vid_t vertices);  // every pair of distinct vertices
EdgeList generate_empty(vid_t vertices);     // vertices and no edge
EdgeList generate_road(vid_t vertices, std::uint64_t seed);

// One of the above by name, as partition-tool generate and the Python module ask for it.
struct GeneratorSpec {
  std::string kind;                  // kron | urand | grid | road | star | chain | complete | empty
  unsigned scale = 20;               // kron, urand, grid: 2^scale vertices
  unsigned edge_factor = 16;         // kron, urand
  std::uint32_t rows = 0, cols = 0;  // grid; 0: a near-square grid of 2^scale vertices
  vid_t vertices = 16;               // road, star, chain, complete, empty
  std::uint64_t seed = 1;
};
// Throws InvalidInput for an unknown kind, naming the known ones.
EdgeList generate(const GeneratorSpec& spec);
// How many edges generate(spec) lists (links, for the undirected shapes).
std::uint64_t generated_edges(const GeneratorSpec& spec);
// Whether generate(spec) lists weights of its own (road).
bool generates_weights(const GeneratorSpec& spec);
// Edges [first, first + count) of generate(spec), with their weights, and its vertex count and
// symmetry: any split of the list gives the same edges, so a build can take it a part at a time.
EdgeList generate_part(const GeneratorSpec& spec, std::uint64_t first, std::uint64_t count);

}  // namespace ooc
