#include "ooc/partitioner/generators.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/graph.hpp"

namespace ooc {
namespace {

std::vector<std::pair<vid_t, vid_t>> pairs(const EdgeList& l) {
  std::vector<std::pair<vid_t, vid_t>> p(l.size());
  for (std::size_t i = 0; i < l.size(); ++i)
    p[i] = {l.sources[i], l.targets[i]};
  return p;
}

TEST(Generators, SameSeedSameGraphWhateverTheThreadCount) {
  std::vector<std::pair<vid_t, vid_t>> one_thread, kron_again;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one_thread = pairs(generate_kronecker(14, 8, 7));
  }
  kron_again = pairs(generate_kronecker(14, 8, 7));
  EXPECT_EQ(one_thread, kron_again);
  EXPECT_NE(pairs(generate_kronecker(14, 8, 8)), kron_again);
  EXPECT_EQ(pairs(generate_uniform(12, 4, 3)), pairs(generate_uniform(12, 4, 3)));
}

TEST(Generators, KroneckerIsSkewedAndUniformIsNot) {
  const auto max_over_mean = [](EdgeList list) {
    BuildOptions undirected;
    undirected.undirected = true;
    Graph g = build_graph(std::move(list), undirected);
    eid_t max_degree = 0;
    for (vid_t v = 0; v < g.num_vertices(); ++v)
      max_degree = std::max(max_degree, g.degree(v));
    return static_cast<double>(max_degree) * g.num_vertices() / static_cast<double>(g.num_edges());
  };
  EdgeList kron = generate_kronecker(16, 16, 1);
  EXPECT_EQ(kron.size(), 16u << 16);
  EXPECT_EQ(kron.num_vertices, 1u << 16);
  EXPECT_GT(max_over_mean(std::move(kron)), 50.0);
  EXPECT_LT(max_over_mean(generate_uniform(16, 16, 1)), 3.0);
}

TEST(Generators, GridIsAFourNeighbourMesh) {
  EdgeList grid = generate_grid(3, 4);
  EXPECT_EQ(grid.num_vertices, 12u);
  EXPECT_EQ(grid.size(), 3u * 3 + 2 * 4);
  Graph g = build_graph(std::move(grid), {});
  EXPECT_TRUE(g.symmetric);
  EXPECT_EQ(g.num_edges(), 2u * (3 * 3 + 2 * 4));
  EXPECT_TRUE(std::is_sorted(g.neighbors(5).begin(), g.neighbors(5).end()));
  EXPECT_EQ(std::vector<vid_t>(g.neighbors(5).begin(), g.neighbors(5).end()),
            (std::vector<vid_t>{1, 4, 6, 9}));
  EXPECT_EQ(g.degree(0), 2u);
  EXPECT_EQ(g.degree(11), 2u);
}

TEST(Generators, TinyShapes) {
  EXPECT_EQ(generate_star(5).size(), 4u);
  EXPECT_EQ(generate_chain(5).size(), 4u);
  EXPECT_EQ(generate_complete(5).size(), 10u);
  EXPECT_TRUE(generate_star(5).symmetric_input);
  EXPECT_EQ(build_graph(generate_complete(5), {}).num_edges(), 20u);
  EXPECT_EQ(generate_empty(5).size(), 0u);
  EXPECT_EQ(generate_empty(5).num_vertices, 5u);
  EXPECT_EQ(generate_star(1).size(), 0u);
}

// --- road -------------------------------------------------------------------------------------

std::vector<std::tuple<vid_t, vid_t, std::uint32_t>> triples(const EdgeList& l) {
  std::vector<std::tuple<vid_t, vid_t, std::uint32_t>> t(l.size());
  for (std::size_t i = 0; i < l.size(); ++i)
    t[i] = {l.sources[i], l.targets[i], l.weights.empty() ? 0u : l.weights[i]};
  return t;
}

struct Reach {
  vid_t reached = 0;
  std::uint32_t depth = 0;  // the last level's number
};

// A serial BFS over the built graph.
Reach bfs(const Graph& g, vid_t source) {
  constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> level(g.num_vertices(), kUnreached);
  std::vector<vid_t> frontier{source}, next;
  level[source] = 0;
  Reach reach{1, 0};
  while (!frontier.empty()) {
    next.clear();
    for (const vid_t u : frontier) {
      for (const vid_t v : g.neighbors(u)) {
        if (level[v] != kUnreached) continue;
        level[v] = level[u] + 1;
        next.push_back(v);
      }
    }
    if (!next.empty()) reach.depth = level[next.front()];
    reach.reached += static_cast<vid_t>(next.size());
    std::swap(frontier, next);
  }
  return reach;
}

TEST(Generators, RoadIsTheSameForASeedWhateverTheThreadCount) {
  std::vector<std::tuple<vid_t, vid_t, std::uint32_t>> one_thread;
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    one_thread = triples(generate_road(30011, 3));
  }
  EXPECT_EQ(triples(generate_road(30011, 3)), one_thread);
  EXPECT_NE(triples(generate_road(30011, 4)), one_thread);
}

// The DIMACS road graphs' shape: a mean degree about 2.5, short positive weights, connected, and
// a BFS depth from vertex 0 of 2 sqrt(N) (the staircase through the lattice; at least sqrt(N)).
TEST(Generators, RoadIsConnectedSparseWeightedAndDeep) {
  constexpr vid_t kVertices = 100000;
  EdgeList road = generate_road(kVertices, 1);
  EXPECT_EQ(road.num_vertices, kVertices);
  EXPECT_TRUE(road.symmetric_input);
  ASSERT_EQ(road.weight_type, WeightType::u32);
  const Graph g = build_graph(std::move(road), {});
  EXPECT_TRUE(g.symmetric);
  const double mean_degree = static_cast<double>(g.num_edges()) / kVertices;
  EXPECT_GE(mean_degree, 2.3);
  EXPECT_LE(mean_degree, 2.7);
  eid_t max_degree = 0;
  for (vid_t v = 0; v < kVertices; ++v)
    max_degree = std::max(max_degree, g.degree(v));
  EXPECT_LE(max_degree, 4u);  // a lattice's neighbours
  // Lattice neighbours are 0.4 to 1.71 steps apart once jittered, 100 a step.
  const auto [lightest, heaviest] = std::minmax_element(g.weights.begin(), g.weights.end());
  EXPECT_GE(*lightest, 40u);
  EXPECT_LE(*heaviest, 171u);
  const Reach reach = bfs(g, 0);
  EXPECT_EQ(reach.reached, kVertices);
  EXPECT_GE(reach.depth, static_cast<std::uint32_t>(std::sqrt(kVertices)));
  // Exactly the lattice distance of the farthest vertex: 317 columns, 316 rows, the last partial.
  std::uint32_t farthest = 0;
  for (vid_t v = 0; v < kVertices; ++v)
    farthest = std::max(farthest, v / 317 + v % 317);
  EXPECT_EQ(reach.depth, farthest);
}

TEST(Generators, RoadPartsAreTheWholeListCut) {
  GeneratorSpec spec;
  spec.kind = "road";
  spec.vertices = 10007;  // not a square: the last row is partial
  spec.seed = 5;
  EXPECT_TRUE(generates_weights(spec));
  const auto whole = triples(generate(spec));
  ASSERT_EQ(generated_edges(spec), whole.size());
  for (const std::uint64_t first : {std::uint64_t{0}, std::uint64_t{1}, whole.size() / 3}) {
    const std::uint64_t count = whole.size() / 2;
    const EdgeList part = generate_part(spec, first, count);
    EXPECT_EQ(part.num_vertices, 10007u);
    EXPECT_TRUE(part.symmetric_input);
    EXPECT_EQ(triples(part),
              decltype(whole)(whole.begin() + static_cast<std::ptrdiff_t>(first),
                              whole.begin() + static_cast<std::ptrdiff_t>(first + count)));
  }
  spec.kind = "kron";
  EXPECT_FALSE(generates_weights(spec));
}

TEST(Generators, TinyRoads) {
  EXPECT_EQ(generate_road(0, 1).num_vertices, 0u);
  const EdgeList one = generate_road(1, 1);
  EXPECT_EQ(one.num_vertices, 1u);
  EXPECT_EQ(one.size(), 0u);
  EXPECT_EQ(one.weight_type, WeightType::none);  // no weight type without weights
  for (const vid_t n : {2u, 3u, 5u, 10u}) {
    const Graph g = build_graph(generate_road(n, 1), {});
    EXPECT_EQ(bfs(g, 0).reached, n) << n;
    EXPECT_GE(g.num_edges(), 2u * (n - 1)) << n;  // the spanning tree at least
  }
}

TEST(Generators, RejectScalesBeyond32BitIds) {
  try {
    generate_kronecker(32, 16, 1);
    FAIL() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "scale 32 is out of range: vertex ids are 32-bit, so 1 <= scale <= 31");
  }
  EXPECT_THROW(generate_uniform(10, 0, 1), InvalidInput);
}

}  // namespace
}  // namespace ooc
