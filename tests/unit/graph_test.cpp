#include "ooc/partitioner/graph.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"

namespace ooc {
namespace {

Graph make(std::vector<eid_t> offsets, std::vector<vid_t> targets,
           std::vector<std::uint32_t> weights = {}) {
  Graph g;
  g.offsets = Buffer<eid_t>::copy_of(offsets);
  g.targets = Buffer<vid_t>::copy_of(targets);
  if (!weights.empty()) {
    g.weights = Buffer<std::uint32_t>::copy_of(weights);
    g.weight_type = WeightType::u32;
  }
  return g;
}

template <class T>
std::vector<T> values(const Buffer<T>& b) {
  return {b.begin(), b.end()};
}

std::string validation_error(const Graph& g) {
  try {
    validate(g);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "valid";
}

TEST(Graph, AccessorsFollowTheCsr) {
  Graph g = make({0, 2, 3, 3}, {1, 2, 0});
  EXPECT_EQ(g.num_vertices(), 3u);
  EXPECT_EQ(g.num_edges(), 3u);
  EXPECT_EQ(g.degree(0), 2u);
  EXPECT_EQ(g.neighbors(1)[0], 0u);
  EXPECT_EQ(validation_error(g), "valid");
}

TEST(Graph, ValidateNamesTheFirstProblem) {
  EXPECT_EQ(validation_error(make({0, 2, 1, 3}, {1, 2, 0})), "offsets decrease at vertex 1");
  EXPECT_EQ(validation_error(make({0, 2, 3, 3}, {1, 5, 0})),
            "edge 1 points to vertex 5, but there are only 3 vertices");
  EXPECT_EQ(validation_error(make({0, 2, 3, 4}, {1, 2, 0})),
            "offsets end at 4 but there are 3 edges");
  Graph permuted = make({0, 0, 0}, {});
  permuted.original_ids = Buffer<vid_t>::copy_of(std::vector<vid_t>{1, 1});
  EXPECT_EQ(validation_error(permuted),
            "permutation is not one-to-one: vertices 0 and 1 both have the original id 1");
  permuted.original_ids = Buffer<vid_t>::copy_of(std::vector<vid_t>{0, 2});
  EXPECT_EQ(validation_error(permuted),
            "permutation gives vertex 1 the original id 2, but there are only 2 vertices");
}

TEST(Graph, ARepeatedOriginalIdIsNamedTheSameWhateverTheThreads) {
  // Enough vertices that the check runs on several threads: the first vertex whose original id
  // another vertex shares, and the next one with it, are named on every run.
  constexpr vid_t n = vid_t{1} << 18;
  Graph g = make(std::vector<eid_t>(std::size_t{n} + 1, 0), {});
  std::vector<vid_t> ids(n);
  for (vid_t v = 0; v < n; ++v)
    ids[v] = n - 1 - v;
  ids[200000] = ids[70000];
  ids[250000] = ids[70000];
  ids[90000] = ids[5];
  g.original_ids = Buffer<vid_t>::copy_of(ids);
  for (int run = 0; run < 20; ++run) {
    EXPECT_EQ(validation_error(g),
              "permutation is not one-to-one: vertices 5 and 90000 both have "
              "the original id 262138");
  }
}

TEST(Graph, InternalIdsInvertThePermutation) {
  Graph g = make({0, 0, 0, 0}, {});
  g.original_ids = Buffer<vid_t>::copy_of(std::vector<vid_t>{2, 0, 1});
  auto inverse = internal_ids(g);
  EXPECT_EQ(inverse[2], 0u);
  EXPECT_EQ(inverse[0], 1u);
  EXPECT_EQ(inverse[1], 2u);
}

struct InEdgesCase {
  std::string name;
  std::vector<eid_t> offsets;
  std::vector<vid_t> targets;
  std::vector<std::uint32_t> weights;
  std::vector<eid_t> in_offsets;  // the transpose, by hand
  std::vector<vid_t> in_sources;
  std::vector<std::uint32_t> in_weights;
};

TEST(Graph, InEdgesAreTheEdgesGroupedByTargetInSourceAndWeightOrder) {
  const std::vector<InEdgesCase> cases{
      // 0 -> 1, 2; 1 -> 2; 2 -> 0; 3 -> 2: vertex 3 has no in-edges.
      {"directed", {0, 2, 3, 4, 5}, {1, 2, 2, 0, 2}, {}, {0, 1, 2, 5, 5}, {2, 0, 0, 1, 3}, {}},
      // 0 -> 1 (5), 1 (2), 2 (9); 1 -> 0 (4); 2 -> 1 (7), 1 (3): repeated edges keep their own
      // weights, the lighter first.
      {"weighted, repeated edges",
       {0, 3, 4, 6},
       {1, 1, 2, 0, 1, 1},
       {5, 2, 9, 4, 7, 3},
       {0, 1, 5, 6},
       {1, 0, 0, 2, 2, 0},
       {4, 2, 5, 3, 7, 9}},
      {"a self-loop", {0, 0, 1, 1}, {1}, {}, {0, 0, 1, 1}, {1}, {}},
      {"no edges", {0, 0, 0}, {}, {}, {0, 0, 0}, {}, {}},
      {"no vertices", {0}, {}, {}, {0}, {}, {}}};
  for (const InEdgesCase& c : cases) {
    SCOPED_TRACE(c.name);
    const InEdges in = in_edges_of(make(c.offsets, c.targets, c.weights));
    EXPECT_EQ(values(in.offsets), c.in_offsets);
    EXPECT_EQ(values(in.sources), c.in_sources);
    EXPECT_EQ(values(in.weights), c.in_weights);
  }
}

TEST(Graph, InEdgesAreTheSameWhateverTheThreadCount) {
  BuildOptions options;
  options.remove_duplicates = false;
  options.weights = parse_weight_spec("random:1-64", 3);
  const Graph g = build_graph(generate_kronecker(14, 8, 4), options);
  // The transpose done serially: (target, source, weight), sorted.
  std::vector<std::tuple<vid_t, vid_t, std::uint32_t>> expected;
  for (vid_t u = 0; u < g.num_vertices(); ++u) {
    for (eid_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      expected.emplace_back(g.targets[e], u, g.weights[e]);
  }
  std::sort(expected.begin(), expected.end());
  for (const int threads : {1, 2, 3, 8}) {
    SCOPED_TRACE(threads);
    const tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                    static_cast<std::size_t>(threads));
    const InEdges in = in_edges_of(g);
    ASSERT_EQ(in.offsets.size(), std::size_t{g.num_vertices()} + 1);
    std::vector<std::tuple<vid_t, vid_t, std::uint32_t>> got;
    for (vid_t v = 0; v < g.num_vertices(); ++v) {
      for (eid_t i = in.offsets[v]; i < in.offsets[v + 1]; ++i)
        got.emplace_back(v, in.sources[i], in.weights[i]);
    }
    EXPECT_TRUE(got == expected);  // in this order, not merely the same edges
  }
}

TEST(Graph, ValidateRefusesInEdgesThatAreNotTheTranspose) {
  // 0 -> 1 (1), 3 (2); 1 -> 3 (3); 2 -> 3 (4), 4 (5); 4 -> 0 (6). In-lists: 0: 4; 1: 0; 2: none;
  // 3: 0, 1, 2; 4: 2.
  const auto graph = [] {
    Graph g = make({0, 2, 3, 5, 5, 6}, {1, 3, 3, 3, 4, 0}, {1, 2, 3, 4, 5, 6});
    g.in_edges = in_edges_of(g);
    return g;
  };
  ASSERT_EQ(validation_error(graph()), "valid");
  const std::string differs = "the in-edges are not the graph's edges grouped by target: vertex ";
  const std::vector<std::tuple<std::string, std::function<void(InEdges&)>, std::string>> cases{
      {"a source changed", [](InEdges& in) { in.sources[3] = 4; }, differs + "3's in-list differs"},
      {"sources out of order", [](InEdges& in) { std::swap(in.sources[2], in.sources[3]); },
       differs + "3's in-list differs"},
      {"a weight changed", [](InEdges& in) { in.weights[4] = 9; }, differs + "3's in-list differs"},
      {"an edge moved to the next list", [](InEdges& in) { in.offsets[3] = 3; },
       differs + "2's in-list differs"},
      {"offsets not from 0", [](InEdges& in) { in.offsets[0] = 1; },
       "the in-offsets start at 1, not 0"},
      {"a source missing",
       [](InEdges& in) {
         in.sources = Buffer<vid_t>::copy_of(std::vector<vid_t>{4, 0, 0, 1, 2});
       },
       "the in-edges hold 6 offsets, 5 sources and 6 weights for 5 vertices and 6 edges"},
      {"no weights", [](InEdges& in) { in.weights = {}; },
       "the in-edges hold 6 offsets, 6 sources and 0 weights for 5 vertices and 6 edges"},
      {"an offset missing",
       [](InEdges& in) {
         in.offsets = Buffer<eid_t>::copy_of(std::vector<eid_t>{0, 1, 2, 2, 5});
       },
       "the in-edges hold 5 offsets, 6 sources and 6 weights for 5 vertices and 6 edges"}};
  for (const auto& [name, edit, message] : cases) {
    SCOPED_TRACE(name);
    Graph g = graph();
    edit(g.in_edges);
    EXPECT_EQ(validation_error(g), message);
  }
}

}  // namespace
}  // namespace ooc
