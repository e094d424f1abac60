#include "ooc/partitioner/graph.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "ooc/core/error.hpp"

namespace ooc {
namespace {

Graph make(std::vector<eid_t> offsets, std::vector<vid_t> targets) {
  Graph g;
  g.offsets = Buffer<eid_t>::copy_of(offsets);
  g.targets = Buffer<vid_t>::copy_of(targets);
  return g;
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
  EXPECT_EQ(validation_error(permuted), "permutation is not one-to-one at vertex 1");
}

TEST(Graph, InternalIdsInvertThePermutation) {
  Graph g = make({0, 0, 0, 0}, {});
  g.original_ids = Buffer<vid_t>::copy_of(std::vector<vid_t>{2, 0, 1});
  auto inverse = internal_ids(g);
  EXPECT_EQ(inverse[2], 0u);
  EXPECT_EQ(inverse[0], 1u);
  EXPECT_EQ(inverse[1], 2u);
}

}  // namespace
}  // namespace ooc
