// The locality measure on graphs whose figures can be worked out by hand.
#include "ooc/partitioner/locality.hpp"

#include <gtest/gtest.h>

#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"

namespace ooc {
namespace {

Graph chain(vid_t n) {
  BuildOptions undirected;
  undirected.undirected = true;
  return build_graph(generate_chain(n), undirected);
}

// A 16-vertex chain: v's list is {v - 1, v + 1}, one sector unless it straddles 7 | 8 (v = 7
// and 8); the two ends have one target each. 30 edges, 120 bytes: every list in line 0.
TEST(Locality, AChainCountsSectorsPerTileAndOneLinePerLevel) {
  const Locality l = measure_locality(chain(16), {.traversals = 1});
  EXPECT_EQ(l.tiles, 16u);
  EXPECT_EQ(l.value_sectors, 18u);
  EXPECT_DOUBLE_EQ(l.sectors_per_tile(), 18.0 / 16.0);
  EXPECT_EQ(l.traversals, 1u);
  EXPECT_EQ(l.lists_read, 16u);
  EXPECT_EQ(l.list_lines, 16u);  // one line each, list by list
  // Read together, a level's lists share line 0: one line per BFS level, 9 to 16 levels.
  EXPECT_GE(l.shared_lines, 9u);
  EXPECT_LE(l.shared_lines, 16u);
}

// A star's hub lists every leaf: 40 targets, tiles of 32 and 8 (sectors 0-4 and 4-5, since its
// targets are 1..40), and each leaf's list {0}. Its 80 edges span lines 0-2.
TEST(Locality, LongListsAreTiledByAWarpsWidth) {
  BuildOptions undirected;
  undirected.undirected = true;
  const Locality l =
      measure_locality(build_graph(generate_star(41), undirected), {.traversals = 0});
  EXPECT_EQ(l.tiles, 2u + 40u);
  EXPECT_EQ(l.value_sectors, 5u + 2u + 40u);
  EXPECT_EQ(l.traversals, 0u);
  EXPECT_EQ(l.shared_lines, 0u);
}

TEST(Locality, GraphsWithoutEdgesHaveNoTiles) {
  for (const vid_t n : {vid_t{0}, vid_t{5}}) {
    const Locality l = measure_locality(build_graph(generate_empty(n), {}));
    EXPECT_EQ(l.tiles, 0u);
    EXPECT_EQ(l.traversals, 0u);
    EXPECT_EQ(l.sectors_per_tile(), 0.0);
  }
}

}  // namespace
}  // namespace ooc
