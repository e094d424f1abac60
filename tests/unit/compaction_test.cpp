#include "ooc/transfer/compaction.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"

namespace ooc {
namespace {

// 0: {1,2,3}, 1: {}, 2: {0,3}, 3: {0,1,2,4}, 4: {} with weights 10*u + v.
Graph example() {
  std::vector<std::pair<vid_t, vid_t>> pairs{{0, 1}, {0, 2}, {0, 3}, {2, 0}, {2, 3},
                                             {3, 0}, {3, 1}, {3, 2}, {3, 4}};
  std::vector<std::uint32_t> weights;
  for (auto [u, v] : pairs)
    weights.push_back(10 * u + v);
  return build_graph(test::edge_list(5, pairs, weights), {});
}

struct Staging {
  std::vector<vid_t> vertices, targets;
  std::vector<eid_t> offsets;
  std::vector<std::uint32_t> weights;
  CompactionBuffer buffer(std::size_t vertex_capacity, eid_t edge_capacity) {
    vertices.assign(vertex_capacity, 0);
    offsets.assign(vertex_capacity + 1, 0);
    targets.assign(edge_capacity, 0);
    weights.assign(edge_capacity, 0);
    return {vertices.data(), offsets.data(),  targets.data(),
            weights.data(),  vertex_capacity, edge_capacity};
  }
};

TEST(Compaction, GathersActiveListsWithNewOffsets) {
  const Graph g = example();
  Staging s;
  const std::vector<vid_t> active{3, 1, 0};
  const CompactedBatch batch = compact(g, active, s.buffer(8, 16));
  EXPECT_EQ(batch.vertices, 3u);
  EXPECT_EQ(batch.edges, 7u);
  EXPECT_EQ(std::vector<eid_t>(s.offsets.begin(), s.offsets.begin() + 4),
            (std::vector<eid_t>{0, 4, 4, 7}));
  EXPECT_EQ(std::vector<vid_t>(s.targets.begin(), s.targets.begin() + 7),
            (std::vector<vid_t>{0, 1, 2, 4, 1, 2, 3}));
  EXPECT_EQ(std::vector<std::uint32_t>(s.weights.begin(), s.weights.begin() + 7),
            (std::vector<std::uint32_t>{30, 31, 32, 34, 1, 2, 3}));
  EXPECT_EQ(std::vector<vid_t>(s.vertices.begin(), s.vertices.begin() + 3), active);
}

TEST(Compaction, StopsWhereTheBufferIsFullAndRefusesAListThatCannotFit) {
  const Graph g = example();
  Staging s;
  const std::vector<vid_t> active{0, 2, 3};
  const CompactedBatch first =
      compact(g, active, s.buffer(8, 5));  // 3 + 2 edges fit, then 4 do not
  EXPECT_EQ(first.vertices, 2u);
  EXPECT_EQ(first.edges, 5u);
  const CompactedBatch by_vertices = compact(g, active, s.buffer(1, 16));
  EXPECT_EQ(by_vertices.vertices, 1u);
  try {
    compact(g, std::vector<vid_t>{3}, s.buffer(8, 3));
    FAIL() << "no exception";
  } catch (const OutOfMemory& e) {
    EXPECT_STREQ(e.what(),
                 "compaction staging holds 12 B of edges, but vertex 3 alone has 4 edges");
  }
}

}  // namespace
}  // namespace ooc
