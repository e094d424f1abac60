// The test products (tests/common/products.hpp): the full product in ::testing::Combine's order,
// and a pairwise set that covers every pair of values of any two axes with fewer cases.
#include "products.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ooc::test {
namespace {

// Whether every pair of values of any two axes appears in some row.
bool covers_every_pair(const std::vector<Row>& rows, const std::vector<std::size_t>& sizes) {
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    for (std::size_t b = a + 1; b < sizes.size(); ++b) {
      std::set<std::pair<std::size_t, std::size_t>> seen;
      for (const Row& row : rows)
        seen.emplace(row[a], row[b]);
      if (seen.size() != sizes[a] * sizes[b]) return false;
    }
  }
  return true;
}

TEST(Products, TheFullProductRunsTheLastAxisFastest) {
  EXPECT_EQ(full_rows({2, 3}), (std::vector<Row>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(full_rows({3}), (std::vector<Row>{{0}, {1}, {2}}));
  EXPECT_TRUE(full_rows({2, 0, 4}).empty());
}

TEST(Products, PairwiseSetsCoverEveryPairWithFewerCases) {
  // The axes of the shared suites: program x shape x policy x priority (x ranks or mapping), the
  // batches' shape x policy x width, the directions' shape x policy x direction x priority (x
  // ranks), the compressed lists' program x shape x policy.
  for (const std::vector<std::size_t>& sizes :
       std::vector<std::vector<std::size_t>>{{6, 9, 8, 2},
                                             {6, 9, 6, 2, 2},
                                             {6, 9, 8, 2, 5},
                                             {8, 6, 3},
                                             {8, 8, 2, 2},
                                             {8, 6, 2, 2, 2},
                                             {6, 9, 5}}) {
    const std::vector<Row> rows = pairwise_rows(sizes);
    const std::size_t full = full_rows(sizes).size();
    SCOPED_TRACE(std::to_string(rows.size()) + " of " + std::to_string(full));
    EXPECT_TRUE(covers_every_pair(rows, sizes));
    // At least the two largest axes' product; a greedy set stays within twice that here.
    std::vector<std::size_t> largest = sizes;
    std::sort(largest.rbegin(), largest.rend());
    EXPECT_GE(rows.size(), largest[0] * largest[1]);
    EXPECT_LE(rows.size(), 2 * largest[0] * largest[1]);
    EXPECT_LE(rows.size() * 3, full);
    EXPECT_EQ(std::set<Row>(rows.begin(), rows.end()).size(), rows.size());  // no case twice
  }
  // One axis, or two, leave nothing out.
  EXPECT_EQ(pairwise_rows({4}), full_rows({4}));
  EXPECT_EQ(pairwise_rows({3, 2}), full_rows({3, 2}));
}

TEST(Products, CasesPickTheValuesAndNestTheLastAxis) {
  const std::vector<std::string> programs{"bfs", "cc"};
  const std::vector<bool> flags{false, true};
  const std::vector<int> ranks{2, 3};
  const auto flat = cases(programs, flags, ranks);
  ASSERT_FALSE(flat.empty());
  EXPECT_EQ(flat.front(), std::make_tuple(std::string("bfs"), false, 2));
  EXPECT_EQ(flat.size(), kPairwiseProducts ? 4u : 8u);  // 2 x 2 x 2: four rows cover the pairs
  const auto nested = nest_last(flat);
  ASSERT_EQ(nested.size(), flat.size());
  for (std::size_t i = 0; i < flat.size(); ++i) {
    EXPECT_EQ(std::get<0>(nested[i]),
              std::make_tuple(std::get<0>(flat[i]), static_cast<bool>(std::get<1>(flat[i]))));
    EXPECT_EQ(std::get<1>(nested[i]), std::get<2>(flat[i]));
  }
}

}  // namespace
}  // namespace ooc::test
