#include "ooc/partitioner/builder.hpp"

#include <gtest/gtest.h>

#include "graph_util.hpp"
#include "ooc/core/error.hpp"

namespace ooc {
namespace {

using test::Edge;
using test::edge_list;
using test::edge_set;

TEST(Builder, RemovesSelfLoopsAndDuplicatesKeepingTheSmallestWeight) {
  Graph g =
      build_graph(edge_list(4, {{0, 1}, {0, 1}, {2, 2}, {3, 0}, {0, 1}}, {9, 4, 1, 7, 6}), {});
  EXPECT_EQ(edge_set(g), (std::vector<Edge>{{0, 1, 4}, {3, 0, 7}}));
  EXPECT_EQ(g.num_vertices(), 4u);
  EXPECT_EQ(g.weight_type, WeightType::u32);
  EXPECT_FALSE(g.symmetric);
}

TEST(Builder, KeepsWhatItIsAskedToKeep) {
  BuildOptions keep;
  keep.remove_self_loops = false;
  keep.remove_duplicates = false;
  Graph g = build_graph(edge_list(3, {{0, 1}, {0, 1}, {2, 2}}), keep);
  EXPECT_EQ(edge_set(g), (std::vector<Edge>{{0, 1, 0}, {0, 1, 0}, {2, 2, 0}}));
}

TEST(Builder, UndirectedAddsEveryReverseEdgeOnce) {
  BuildOptions undirected;
  undirected.undirected = true;
  Graph g = build_graph(edge_list(3, {{0, 1}, {1, 0}, {1, 2}}, {5, 3, 2}), undirected);
  EXPECT_TRUE(g.symmetric);
  EXPECT_EQ(edge_set(g), (std::vector<Edge>{{0, 1, 3}, {1, 0, 3}, {1, 2, 2}, {2, 1, 2}}));
}

TEST(Builder, SymmetricInputIsExpandedWithoutTheOption) {
  EdgeList list = edge_list(3, {{1, 0}, {2, 2}});
  list.symmetric_input = true;
  BuildOptions keep_loops;
  keep_loops.remove_self_loops = false;
  Graph g = build_graph(std::move(list), keep_loops);
  EXPECT_TRUE(g.symmetric);
  EXPECT_EQ(edge_set(g), (std::vector<Edge>{{0, 1, 0}, {1, 0, 0}, {2, 2, 0}}));
}

TEST(Builder, KeepsIdsAsGivenUnlessAskedToCompact) {
  Graph kept = build_graph(edge_list(11, {{10, 4}, {4, 7}}), {});
  EXPECT_EQ(kept.num_vertices(), 11u);
  BuildOptions compact;
  compact.compact_ids = true;
  Graph g = build_graph(edge_list(11, {{10, 4}, {4, 7}}), compact);
  EXPECT_EQ(g.num_vertices(), 3u);  // 4, 7 and 10 become 0, 1 and 2, the user's ids from now on
  EXPECT_TRUE(g.original_ids.empty());
  EXPECT_EQ(edge_set(g), (std::vector<Edge>{{0, 1, 0}, {2, 0, 0}}));
}

TEST(Builder, RandomWeightsAreSymmetricInRangeAndReproducible) {
  BuildOptions options;
  options.undirected = true;
  options.weights = parse_weight_spec("random:3-5", 42);
  const auto make = [&] {
    return build_graph(edge_list(50, {{0, 1}, {1, 2}, {7, 30}, {30, 49}}), options);
  };
  Graph a = make(), b = make();
  EXPECT_EQ(edge_set(a), edge_set(b));
  for (vid_t u = 0; u < a.num_vertices(); ++u) {
    for (eid_t e = a.offsets[u]; e < a.offsets[u + 1]; ++e) {
      const vid_t v = a.targets[e];
      EXPECT_GE(a.weights[e], 3u);
      EXPECT_LE(a.weights[e], 5u);
      const auto back =
          std::find(a.targets.begin() + static_cast<std::ptrdiff_t>(a.offsets[v]),
                    a.targets.begin() + static_cast<std::ptrdiff_t>(a.offsets[v + 1]), u);
      EXPECT_EQ(a.weights[static_cast<std::size_t>(back - a.targets.begin())], a.weights[e]);
    }
  }
}

TEST(Builder, WeightsNoneDropsTheInputWeights) {
  BuildOptions none;
  none.weights = parse_weight_spec("none", 1);
  Graph g = build_graph(edge_list(2, {{0, 1}}, {8}), none);
  EXPECT_FALSE(g.weighted());
  EXPECT_TRUE(g.weights.empty());
}

TEST(Builder, RejectsIdsBeyondTheDeclaredVertexCount) {
  try {
    build_graph(edge_list(3, {{0, 1}, {1, 3}}), {});
    FAIL() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "edge 1 (1 -> 3) names a vertex beyond the declared 3 vertices");
  }
}

TEST(WeightSpec, ParsesAndRejectsWithClearMessages) {
  EXPECT_EQ(parse_weight_spec("file", 1).kind, WeightSpec::Kind::from_input);
  const WeightSpec r = parse_weight_spec("random:1-64", 9);
  EXPECT_EQ(r.kind, WeightSpec::Kind::random);
  EXPECT_EQ(r.low, 1u);
  EXPECT_EQ(r.high, 64u);
  EXPECT_EQ(r.seed, 9u);
  try {
    parse_weight_spec("random:9-2", 1);
    FAIL() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(
        e.what(),
        "invalid weights 'random:9-2': expected random:LO-HI with integers 0 <= LO <= HI < 2^32");
  }
  EXPECT_THROW(parse_weight_spec("uniform", 1), InvalidInput);
  EXPECT_THROW(parse_weight_spec("random:1", 1), InvalidInput);
}

TEST(Builder, EmptyInputGivesAnEmptyGraph) {
  Graph g = build_graph(edge_list(0, {}), {});
  EXPECT_EQ(g.num_vertices(), 0u);
  EXPECT_EQ(g.num_edges(), 0u);
  EXPECT_NO_THROW(validate(g));
}

}  // namespace
}  // namespace ooc
