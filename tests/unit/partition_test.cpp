#include "ooc/partitioner/partition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

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

// A rank's plan (plan_host_memory's candidates) keeps and counts its own partitions alone: the
// 8 bytes of partition 0 that fill the budget of every partition's plan are another rank's.
TEST(Partition, AHostMemoryPlanOfSomePartitionsKeepsAndCountsThoseAlone) {
  const Graph g = example();
  const auto parts = partition_by_edges(g, 16, 4);  // of 8, 36 and 8 bytes
  const HostMemoryPlan all = plan_host_memory(g, parts, 10);
  EXPECT_EQ(all.kept, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(all.list_bytes, 52u);
  const HostMemoryPlan mine = plan_host_memory(g, parts, 10, {false, true, true});
  EXPECT_EQ(mine.kept, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(mine.kept_ranges, (std::vector<std::pair<vid_t, vid_t>>{{2, 10}}));
  EXPECT_EQ(mine.kept_bytes, 8u);
  EXPECT_EQ(mine.list_bytes, 44u);
  EXPECT_EQ(mine.kept_partitions, 1u);
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

// Every vertex has 2 out-edges, to the next vertex and to vertex 500, which so has 1,001
// in-edges (499's two edges both go to it, and 500 has a self-loop).
Graph even_out_skewed_in() {
  constexpr vid_t kVertices = 1000, kHub = 500;
  std::vector<eid_t> offsets(kVertices + 1);
  std::vector<vid_t> targets;
  for (vid_t v = 0; v < kVertices; ++v) {
    offsets[v] = targets.size();
    targets.insert(targets.end(), {kHub, (v + 1) % kVertices});
  }
  offsets[kVertices] = targets.size();
  Graph g;
  g.offsets = Buffer<eid_t>::copy_of(offsets);
  g.targets = Buffer<vid_t>::copy_of(targets);
  return g;
}

// The in-edges of vertices [first, last).
eid_t in_edges(const Graph& g, const Partition& p) {
  return g.in_edges.offsets[p.last_vertex] - g.in_edges.offsets[p.first_vertex];
}

TEST(Partition, InListsFitTooWhenTheGraphHasThem) {
  Graph g = even_out_skewed_in();
  g.in_edges = in_edges_of(g);
  ASSERT_EQ(g.in_edges.degree(500), 1001u);
  // 16 edges of 4 bytes per partition: by the out-lists alone, 8 vertices each.
  const auto parts = partition_by_edges(g, 64, 4);
  ASSERT_FALSE(parts.empty());
  EXPECT_EQ(parts.front().first_vertex, 0u);
  EXPECT_EQ(parts.back().last_vertex, g.num_vertices());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Partition& p = parts[i];
    EXPECT_LT(p.first_vertex, p.last_vertex);
    if (i > 0) {
      EXPECT_EQ(p.first_vertex, parts[i - 1].last_vertex);
    }
    EXPECT_TRUE(p.num_edges() <= 16 || p.num_vertices() == 1) << p.first_vertex;
    EXPECT_TRUE(in_edges(g, p) <= 16 || p.num_vertices() == 1) << p.first_vertex;
    if (p.first_vertex <= 500 && 500 < p.last_vertex) {
      EXPECT_EQ(p.first_vertex, 500u);  // the hub alone: its in-list is all it holds
      EXPECT_EQ(p.num_vertices(), 1u);
    }
  }
  // Cut by the out-lists alone, the hub shares a partition whose in-lists are far too large.
  const Graph out_only = even_out_skewed_in();
  const auto by_out = partition_by_edges(out_only, 64, 4);
  EXPECT_LT(by_out.size(), parts.size());
  const auto hub = std::find_if(by_out.begin(), by_out.end(),
                                [](const Partition& p) { return p.last_vertex > 500; });
  ASSERT_NE(hub, by_out.end());
  EXPECT_GT(in_edges(g, *hub), 16u);
}

}  // namespace
}  // namespace ooc
