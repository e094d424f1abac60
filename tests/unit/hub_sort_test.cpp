#include "ooc/partitioner/hub_sort.hpp"

#include <gtest/gtest.h>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"

namespace ooc {
namespace {

using test::edge_list;
using test::edge_set;

// Directed: vertex 3 has out 3 / in 2 (score 6), vertex 1 out 1 / in 3 (3), vertex 4 out 2 /
// in 1 (2), vertex 0 out 1 / in 1 (1), vertex 2 out 1 / in 1 (1), vertex 5 nothing (0).
Graph directed_example() {
  return build_graph(edge_list(6, {{3, 1}, {3, 0}, {3, 4}, {1, 3}, {4, 1}, {4, 2}, {0, 3}, {2, 1}},
                               {1, 2, 3, 4, 5, 6, 7, 8}),
                     {});
}

TEST(HubSort, MovesTheTopScoresFirstAndKeepsTheRestInOrder) {
  Graph g = hub_sort(directed_example(), 0.5);  // 3 hubs of 6 vertices
  EXPECT_EQ(g.hub_count, 3u);
  ASSERT_EQ(g.original_ids.size(), 6u);
  const std::vector<vid_t> order(g.original_ids.begin(), g.original_ids.end());
  EXPECT_EQ(order, (std::vector<vid_t>{3, 1, 4, 0, 2, 5}));
  EXPECT_NO_THROW(validate(g));
}

TEST(HubSort, UsersSeeTheSameEdgesInTheirIds) {
  Graph before = directed_example();
  const auto expected = edge_set(before);
  Graph after = hub_sort(std::move(before), 0.34);
  EXPECT_EQ(edge_set(after), expected);
}

TEST(HubSort, TiesGoToTheSmallerIdAndZeroFractionChangesNothing) {
  BuildOptions undirected;
  undirected.undirected = true;
  Graph g = hub_sort(build_graph(generate_chain(6), undirected), 0.5);
  const std::vector<vid_t> order(g.original_ids.begin(), g.original_ids.end());
  EXPECT_EQ(order, (std::vector<vid_t>{1, 2, 3, 0, 4, 5}));
  Graph unchanged = hub_sort(build_graph(generate_chain(6), undirected), 0.0);
  EXPECT_TRUE(unchanged.original_ids.empty());
  EXPECT_EQ(unchanged.hub_count, 0u);
}

TEST(HubSort, ComposesWithCompactedIds) {
  BuildOptions compact;
  compact.compact_ids = true;
  // 10, 50 and 90 become 0, 1 and 2; 10 (now 0) still goes first.
  Graph g = build_graph(edge_list(100, {{90, 10}, {10, 50}, {50, 10}, {90, 50}}), compact);
  const auto expected = edge_set(g);
  EXPECT_EQ(expected, (std::vector<test::Edge>{{0, 1, 0}, {1, 0, 0}, {2, 0, 0}, {2, 1, 0}}));
  Graph sorted = hub_sort(std::move(g), 0.34);
  EXPECT_EQ(edge_set(sorted), expected);
  EXPECT_EQ(sorted.original_id(0), 0u);
}

TEST(HubSort, RejectsAFractionOutsideZeroToOne) {
  EXPECT_THROW(hub_sort(directed_example(), 1.5), InvalidInput);
}

}  // namespace
}  // namespace ooc
