#include "ooc/engine/ownership.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/hub_sort.hpp"

namespace ooc {
namespace {

using Ranges = std::vector<std::pair<eid_t, eid_t>>;

// One vertex per partition, with the given edge counts laid out one after the other.
std::vector<Partition> partitions_of(const std::vector<eid_t>& edges) {
  std::vector<Partition> parts;
  eid_t first = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const auto v = static_cast<vid_t>(i);
    parts.push_back({v, v + 1, first, first + edges[i]});
    first += edges[i];
  }
  return parts;
}

// A hub-sorted Kronecker graph of a few dozen partitions, the first ones hubs.
struct Kronecker {
  vid_t hub_count = 0;
  std::vector<Partition> parts;
};

const Kronecker& kronecker() {
  static const Kronecker k = [] {
    BuildOptions undirected;
    undirected.undirected = true;
    const Graph g = hub_sort(build_graph(generate_kronecker(12, 8, 5), undirected));
    return Kronecker{g.hub_count, partition_by_edges(g, 4096, 4)};
  }();
  return k;
}

eid_t largest(std::span<const Partition> parts) {
  eid_t most = 0;
  for (const Partition& p : parts)
    most = std::max(most, p.num_edges());
  return most;
}

TEST(Ownership, OneRankOwnsAll) {
  const auto& k = kronecker();
  const auto owner = assign_partitions(k.parts, k.hub_count, 1);
  EXPECT_EQ(owner, std::vector<std::uint32_t>(k.parts.size(), 0));
  EXPECT_EQ(owned_vertex_ranges(k.parts, owner, 0),
            (std::vector<std::pair<vid_t, vid_t>>{{0, k.parts.back().last_vertex}}));
  EXPECT_DOUBLE_EQ(edge_imbalance(k.parts, owner, 1), 1.0);
}

TEST(Ownership, DealsHubsLargestFirstThenFillsContiguousRuns) {
  // Hubs 40 and 30 go one to each rank; the share is 65, so rank 0 takes the run that brings it
  // past 65 (70) and rank 1 the rest (60).
  const auto parts = partitions_of({40, 30, 10, 10, 10, 10, 10, 10});
  EXPECT_EQ(assign_partitions(parts, 2, 2), (std::vector<std::uint32_t>{0, 1, 0, 0, 0, 1, 1, 1}));
  // The larger hub comes first wherever it lies.
  const auto later = partitions_of({30, 40, 10, 10});
  EXPECT_EQ(assign_partitions(later, 2, 2), (std::vector<std::uint32_t>{1, 0, 0, 1}));
}

TEST(Ownership, DealsHubsInRunsThatOneFilterTaskCopies) {
  // Runs of two: (40, 30) to rank 0, (20, 10) to rank 1; then rank 0 fills past the share of 90
  // and rank 1 takes the rest.
  const auto parts = partitions_of({40, 30, 20, 10, 30, 30, 20});
  EXPECT_EQ(assign_partitions(parts, 4, 2, 2), (std::vector<std::uint32_t>{0, 0, 1, 1, 0, 1, 1}));
  // One by one (the default) the hubs alternate.
  EXPECT_EQ(assign_partitions(parts, 4, 2), (std::vector<std::uint32_t>{0, 1, 1, 0, 0, 0, 1}));
  // A run never spans more than the group: three hubs in groups of two are two runs.
  EXPECT_EQ(assign_partitions(partitions_of({10, 10, 10, 30}), 3, 2, 2),
            (std::vector<std::uint32_t>{0, 0, 1, 0}));
  try {
    assign_partitions(parts, 4, 2, 0);
    FAIL() << "group 0 was accepted";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "a group of hub partitions must hold at least one (got 0)");
  }
}

TEST(Ownership, KroneckerHubRunsStayWithinTheGroupAndBalanced) {
  const auto& k = kronecker();
  const eid_t total = k.parts.back().last_edge;
  for (const std::uint32_t ranks : {2u, 3u, 4u}) {
    SCOPED_TRACE(ranks);
    const auto owner = assign_partitions(k.parts, k.hub_count, ranks, 4);
    // Hub partitions come in runs of four (the last may be shorter), each run to one rank.
    std::size_t hubs = 0;
    while (hubs < k.parts.size() && k.parts[hubs].first_vertex < k.hub_count)
      ++hubs;
    for (std::size_t p = 0; p < hubs; ++p) {
      if (p % 4 != 0) {
        EXPECT_EQ(owner[p], owner[p - 1]) << p;
      }
    }
    eid_t largest_run = 0;
    for (std::size_t p = 0; p < hubs; p += 4) {
      eid_t run = 0;
      for (std::size_t q = p; q < std::min(hubs, p + 4); ++q)
        run += k.parts[q].num_edges();
      largest_run = std::max(largest_run, run);
    }
    const double mean = static_cast<double>(total) / ranks;
    EXPECT_LE(edge_imbalance(k.parts, owner, ranks),
              1.0 + static_cast<double>(std::max(largest_run, largest(k.parts))) / mean);
  }
}

TEST(Ownership, BalancesAKroneckerGraphWithinTheLargestPartition) {
  const auto& k = kronecker();
  const eid_t total = k.parts.back().last_edge;
  ASSERT_GE(k.parts.size(), 16u);
  for (const std::uint32_t ranks : {2u, 3u, 4u, 8u}) {
    SCOPED_TRACE(ranks);
    const auto owner = assign_partitions(k.parts, k.hub_count, ranks);
    ASSERT_EQ(owner.size(), k.parts.size());
    const double mean = static_cast<double>(total) / ranks;
    EXPECT_LE(edge_imbalance(k.parts, owner, ranks),
              1.0 + static_cast<double>(largest(k.parts)) / mean);
    EXPECT_EQ(assign_partitions(k.parts, k.hub_count, ranks), owner);  // deterministic
    // After the hubs, owners only go up: each rank's other partitions are one run.
    for (std::size_t p = 1; p < k.parts.size(); ++p) {
      if (k.parts[p - 1].first_vertex >= k.hub_count) {
        EXPECT_LE(owner[p - 1], owner[p]) << p;
      }
    }
  }
}

TEST(Ownership, EveryEdgeIsOwnedExactlyOnce) {
  const auto& k = kronecker();
  for (const std::uint32_t ranks : {2u, 3u, 4u, 8u}) {
    SCOPED_TRACE(ranks);
    const auto owner = assign_partitions(k.parts, k.hub_count, ranks);
    for (const std::uint32_t r : owner)
      EXPECT_LT(r, ranks);
    // Every partition, and so every edge, has exactly one owner among the ranks' vertex ranges.
    std::vector<int> owners_of(k.parts.size(), 0);
    for (std::uint32_t r = 0; r < ranks; ++r) {
      for (const auto& [first, last] : owned_vertex_ranges(k.parts, owner, r)) {
        for (std::size_t p = 0; p < k.parts.size(); ++p) {
          if (k.parts[p].first_vertex >= first && k.parts[p].last_vertex <= last) ++owners_of[p];
        }
      }
    }
    EXPECT_TRUE(std::all_of(owners_of.begin(), owners_of.end(), [](int n) { return n == 1; }));
  }
}

TEST(Ownership, SpreadsHubPartitions) {
  const auto& k = kronecker();
  std::size_t hub_parts = 0;
  while (hub_parts < k.parts.size() && k.parts[hub_parts].first_vertex < k.hub_count)
    ++hub_parts;
  ASSERT_GE(hub_parts, 2u);
  const auto owner = assign_partitions(k.parts, k.hub_count, 2);
  const std::vector<std::uint32_t> hubs(owner.begin(), owner.begin() + hub_parts);
  EXPECT_NE(std::count(hubs.begin(), hubs.end(), 0u), 0);
  EXPECT_NE(std::count(hubs.begin(), hubs.end(), 1u), 0);
}

TEST(Ownership, FewerPartitionsThanRanks) {
  const auto parts = partitions_of({100, 50, 30});
  const auto owner = assign_partitions(parts, 0, 5);
  EXPECT_EQ(owner, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_TRUE(owned_vertex_ranges(parts, owner, 3).empty());
  EXPECT_TRUE(owned_vertex_ranges(parts, owner, 4).empty());
  EXPECT_LE(edge_imbalance(parts, owner, 5), 1.0 + 100.0 / (180.0 / 5));
  EXPECT_EQ(assign_partitions({}, 0, 4), std::vector<std::uint32_t>{});
}

// A rank reads its vertices' lists by these ranges, so those of partitions without out-edges
// count too: their vertices may have in-edges.
TEST(Ownership, OwnedVertexRangesMergeNeighboursAndKeepEmptyPartitions) {
  const auto parts = partitions_of({10, 10, 10, 0, 10, 0, 10});
  const std::vector<std::uint32_t> owner{0, 0, 1, 1, 0, 0, 0};
  using VertexRanges = std::vector<std::pair<vid_t, vid_t>>;
  EXPECT_EQ(owned_vertex_ranges(parts, owner, 0), (VertexRanges{{0, 2}, {4, 7}}));
  EXPECT_EQ(owned_vertex_ranges(parts, owner, 1), (VertexRanges{{2, 4}}));
  EXPECT_TRUE(owned_vertex_ranges(parts, owner, 2).empty());
  EXPECT_DOUBLE_EQ(edge_imbalance(parts, owner, 2), 40.0 / 25.0);
  EXPECT_THROW(owned_vertex_ranges(parts, std::vector<std::uint32_t>{}, 0), InvalidInput);
}

// Every rank's vertex ranges together are the graph's vertices, once each, and the edges under
// them together are the graph's edges, once each.
TEST(Ownership, OwnedVertexRangesCoverTheVerticesOnceAndHoldTheOwnedEdges) {
  const auto& k = kronecker();
  for (const std::uint32_t ranks : {2u, 3u, 7u}) {
    const auto owner = assign_partitions(k.parts, k.hub_count, ranks);
    std::vector<int> seen(k.parts.back().last_vertex, 0);
    Ranges all_edges;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const auto vertices = owned_vertex_ranges(k.parts, owner, r);
      Ranges edges;
      for (const auto& [first, last] : vertices) {
        for (vid_t v = first; v < last; ++v)
          ++seen[v];
        // The partitions' offsets at the range's ends.
        const auto at = [&](vid_t v) {
          for (const Partition& p : k.parts) {
            if (p.first_vertex == v) return p.first_edge;
          }
          return k.parts.back().last_edge;
        };
        if (at(first) != at(last)) edges.emplace_back(at(first), at(last));
      }
      all_edges.insert(all_edges.end(), edges.begin(), edges.end());
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
    std::sort(all_edges.begin(), all_edges.end());
    eid_t next = 0;
    for (const auto& [first, last] : all_edges) {
      EXPECT_EQ(first, next);
      next = last;
    }
    EXPECT_EQ(next, k.parts.back().last_edge);
  }
}

// The rank-by-rank layout: each rank's vertices in vertex order from r * block, block the most any
// rank owns, and pieces no longer than kLayoutPieceVertices.
TEST(Ownership, OwnedLayoutPutsEachRanksVerticesInItsBlock) {
  std::vector<Partition> parts{{0, 3, 0, 10}, {3, 5, 10, 20}, {5, 9, 20, 30}, {9, 10, 30, 40}};
  const std::vector<std::uint32_t> owner{1, 0, 1, 0};
  const OwnedLayout layout = owned_layout(parts, owner, 2);
  EXPECT_EQ(layout.block, 7u);  // rank 1: 3 + 4 vertices, rank 0: 2 + 1
  EXPECT_EQ(layout.slots(2), 14u);
  ASSERT_EQ(layout.pieces.size(), 4u);
  const auto piece = [&](std::size_t i) {
    const OwnedLayout::Piece& p = layout.pieces[i];
    return std::vector<std::uint64_t>{p.first, p.count, p.rank, p.slot};
  };
  EXPECT_EQ(piece(0), (std::vector<std::uint64_t>{0, 3, 1, 7}));
  EXPECT_EQ(piece(1), (std::vector<std::uint64_t>{3, 2, 0, 0}));
  EXPECT_EQ(piece(2), (std::vector<std::uint64_t>{5, 4, 1, 10}));
  EXPECT_EQ(piece(3), (std::vector<std::uint64_t>{9, 1, 0, 2}));
  EXPECT_TRUE(layout.scatters(2, 10));  // 14 slots against 20 values all-reduced
  EXPECT_FALSE(owned_layout(parts, std::vector<std::uint32_t>{1, 1, 1, 1}, 2).scatters(2, 10));
  EXPECT_THROW(owned_layout(parts, std::vector<std::uint32_t>{0, 0, 2, 0}, 2), InvalidInput);
}

TEST(Ownership, OwnedLayoutGivesEveryVertexOneSlotInItsOwnersBlock) {
  // Partitions longer than a piece are cut.
  const vid_t big = 3 * kLayoutPieceVertices + 5;
  std::vector<Partition> parts{{0, big, 0, 1}, {big, big + 7, 1, 2}, {big + 7, 2 * big, 2, 3}};
  for (const std::uint32_t ranks : {1u, 2u, 3u}) {
    std::vector<std::uint32_t> owner(parts.size());
    for (std::size_t p = 0; p < parts.size(); ++p)
      owner[p] = static_cast<std::uint32_t>(p % ranks);
    const OwnedLayout layout = owned_layout(parts, owner, ranks);
    std::vector<int> slot_seen(layout.slots(ranks), 0);
    vid_t next = 0;
    for (const OwnedLayout::Piece& p : layout.pieces) {
      EXPECT_EQ(p.first, next);
      EXPECT_GT(p.count, 0u);
      EXPECT_LE(p.count, kLayoutPieceVertices);
      EXPECT_GE(p.slot, p.rank * layout.block);
      EXPECT_LE(p.slot + p.count, (p.rank + 1) * layout.block);
      for (vid_t i = 0; i < p.count; ++i)
        ++slot_seen[p.slot + i];
      next += p.count;
    }
    EXPECT_EQ(next, 2 * big);
    EXPECT_EQ(std::count(slot_seen.begin(), slot_seen.end(), 1), std::ptrdiff_t{2} * big);
    EXPECT_EQ(std::count(slot_seen.begin(), slot_seen.end(), 0),
              static_cast<std::ptrdiff_t>(layout.slots(ranks)) - std::ptrdiff_t{2} * big);
  }
}

TEST(Ownership, RejectsZeroRanks) {
  const auto parts = partitions_of({10});
  try {
    assign_partitions(parts, 0, 0);
    FAIL() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "the number of ranks must be at least 1 (got 0)");
  }
  EXPECT_THROW(edge_imbalance(parts, std::vector<std::uint32_t>{0}, 0), InvalidInput);
  EXPECT_THROW(edge_imbalance(parts, std::vector<std::uint32_t>{1}, 1), InvalidInput);
}

}  // namespace
}  // namespace ooc
