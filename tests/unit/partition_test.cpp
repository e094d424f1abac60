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

TEST(Partition, MoreThanTheMostPartitionsIsRefusedNamingASizeThatWorks) {
  // 200,001 vertices, both directions of 200,000 links: 400,000 edges, 2 per inner vertex.
  const Graph chain = build_graph(generate_chain(200'001), {});
  try {
    partition_by_edges(chain, 4, 4);
    FAIL() << "200,000 partitions were accepted";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(),
                 "partition size 4 B splits the 1.53 MiB of edges into more than 65,536 "
                 "partitions, the most allowed, since each is surveyed and scheduled in every "
                 "iteration: use 32 B or more (the default is 32.0 MiB)");
  }
  EXPECT_EQ(partition_by_edges(chain, 32, 4).size(), 50'001u);   // 4 vertices each
  EXPECT_THROW(partition_by_edges(chain, 16, 4), InvalidInput);  // 2 each: 32 B is the smallest
}

TEST(Partition, OnlyTheRealCountIsBoundedNotEdgesOverSize) {
  // One vertex holds all 100,000 edges: it gets a partition of its own, the leaves share one.
  std::vector<std::pair<vid_t, vid_t>> spokes;
  for (vid_t leaf = 1; leaf <= 100'000; ++leaf)
    spokes.emplace_back(0, leaf);
  const Graph star = build_graph(test::edge_list(100'001, spokes), {});
  EXPECT_EQ(partition_by_edges(star, 4, 4).size(), 2u);
}

}  // namespace
}  // namespace ooc
