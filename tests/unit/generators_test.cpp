#include "ooc/partitioner/generators.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <vector>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"

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
