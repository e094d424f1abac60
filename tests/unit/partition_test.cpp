#include "ooc/partitioner/partition.hpp"

#include <gtest/gtest.h>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"

namespace ooc {
namespace {

// Degrees: 0 -> 2 edges, 1 -> 9 edges (heavier than a partition), 2 -> 1, 3 -> 1, 4 -> 0.
Graph example() {
  std::vector<std::pair<vid_t, vid_t>> pairs{{0, 1}, {0, 2}, {2, 3}, {3, 4}};
  for (vid_t v = 0; v < 9; ++v)
    pairs.emplace_back(1, v == 1 ? 9 : v);
  return build_graph(test::edge_list(10, pairs), {});
}

TEST(Partition, FillsUpToTheBudgetAndGivesAHeavyVertexItsOwnPartition) {
  const Graph g = example();
  // 4 edges of 4 bytes per partition.
  const auto parts = partition_by_edges(g, 16, 4);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].first_vertex, 0u);
  EXPECT_EQ(parts[0].last_vertex, 1u);
  EXPECT_EQ(parts[1].first_vertex, 1u);
  EXPECT_EQ(parts[1].last_vertex, 2u);
  EXPECT_EQ(parts[1].num_edges(), 9u);
  EXPECT_EQ(parts[2].first_vertex, 2u);
  EXPECT_EQ(parts[2].last_vertex, 10u);
  EXPECT_EQ(parts[2].num_edges(), 2u);
}

TEST(Partition, CoversEveryVertexAndEdgeExactlyOnce) {
  BuildOptions undirected;
  undirected.undirected = true;
  const Graph g = build_graph(generate_kronecker(12, 8, 3), undirected);
  const auto parts = partition_by_edges(g, 4096, 8);
  ASSERT_FALSE(parts.empty());
  EXPECT_EQ(parts.front().first_vertex, 0u);
  EXPECT_EQ(parts.back().last_vertex, g.num_vertices());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    EXPECT_LT(parts[i].first_vertex, parts[i].last_vertex);
    EXPECT_TRUE(parts[i].num_edges() <= 512 || parts[i].num_vertices() == 1);
    if (i > 0) {
      EXPECT_EQ(parts[i].first_vertex, parts[i - 1].last_vertex);
    }
  }
}

TEST(Partition, EmptyGraphHasNoPartitionAndTinyBudgetIsRejected) {
  const Graph empty = build_graph(generate_empty(0), {});
  EXPECT_TRUE(partition_by_edges(empty, 1024, 4).empty());
  EXPECT_THROW(partition_by_edges(example(), 3, 4), InvalidInput);
}

}  // namespace
}  // namespace ooc
