#include "ooc/engine/edge_cache.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ooc/core/error.hpp"
#include "ooc/engine/frontier_loop.hpp"
#include "ooc/engine/memory_plan.hpp"
#include "ooc/partitioner/builder.hpp"
#include "ooc/partitioner/compress.hpp"
#include "ooc/partitioner/generators.hpp"
#include "ooc/partitioner/partition.hpp"

namespace ooc {
namespace {

// Partition i: `vertices[i]` vertices and `edges[i]` edges, one after another.
std::vector<Partition> partitions(const std::vector<vid_t>& vertices,
                                  const std::vector<eid_t>& edges) {
  std::vector<Partition> parts;
  vid_t v = 0;
  eid_t e = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    parts.push_back({v, v + vertices[i], e, e + edges[i]});
    v += vertices[i];
    e += edges[i];
  }
  return parts;
}

// Each partition's edges at `bytes_per_edge`, as cache_sizes gives them for raw lists.
std::vector<std::uint64_t> sized(const std::vector<Partition>& parts,
                                 std::uint64_t bytes_per_edge) {
  std::vector<std::uint64_t> sizes;
  for (const Partition& p : parts)
    sizes.push_back(p.num_edges() * bytes_per_edge);
  return sizes;
}

// The memory plan's tests: Kronecker 10 built undirected, in partitions of 4 KiB.
struct PlanGraph {
  Graph g = [] {
    BuildOptions build;
    build.undirected = true;
    return build_graph(generate_kronecker(10, 8, 1), build);
  }();
  std::vector<Partition> parts = partition_by_edges(g, 4096, g.bytes_per_edge());
  std::uint64_t n = g.num_vertices();
  EngineOptions options() const {
    EngineOptions o;
    o.partition_bytes = 4096;
    return o;
  }
};

TEST(EdgeCache, LinkBytesAreWhatEachEngineMoves) {
  const PartitionActivity a{1000, 10, 300, 20};
  EXPECT_EQ(link_bytes(TransferEngine::filter, a, 8, 128), 8000u);
  EXPECT_EQ(link_bytes(TransferEngine::compaction, a, 8, 128),
            300u * 8 + 10u * kCompactionIndexBytes);
  EXPECT_EQ(link_bytes(TransferEngine::zerocopy, a, 8, 128), 20u * 128);
  EXPECT_EQ(link_bytes(TransferEngine::resident, a, 8, 128), 0u);
  EXPECT_EQ(link_bytes(TransferEngine::unified, a, 8, 128), 0u);
}

TEST(EdgeCache, WithoutMeasurementsTheDensestPartitionsComeFirst) {
  // Edges per vertex: 100, 1, 50, 2, 10. Room for 250 edges at 4 bytes: partitions 0 and 2
  // (200 edges), then 4 (100) no longer fits, 3 (20) does.
  const auto parts = partitions({1, 100, 2, 10, 10}, {100, 100, 100, 20, 100});
  EXPECT_EQ(choose_cached_partitions(parts, {}, {}, sized(parts, 4), 250 * 4),
            (std::vector<std::uint32_t>{0, 2, 3}));
  // Twice the bytes per edge: 0, then only 3 fits beside it.
  EXPECT_EQ(choose_cached_partitions(parts, {}, {}, sized(parts, 8), 250 * 4),
            (std::vector<std::uint32_t>{0, 3}));
  EXPECT_TRUE(choose_cached_partitions(parts, {}, {}, sized(parts, 4), 0).empty());
  // Room for everything: everything, ascending.
  EXPECT_EQ(choose_cached_partitions(parts, {}, {}, sized(parts, 4), 420 * 4),
            (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
}

TEST(EdgeCache, MeasuredReusePerByteRanksFirst) {
  const auto parts = partitions({1, 100, 2, 10, 10}, {100, 100, 100, 20, 100});
  // Bytes moved per edge: 1, 30, 0 (never active), 10 (20 edges, 200 bytes), 5.
  const std::vector<std::uint64_t> moved{100, 3000, 0, 200, 500};
  EXPECT_EQ(choose_cached_partitions(parts, moved, {}, sized(parts, 4), 220 * 4),
            (std::vector<std::uint32_t>{1, 3, 4}));
  // Unmeasured partitions follow the measured ones: 0 (measured, 100 edges per vertex) before
  // 2 (never active, 50).
  EXPECT_EQ(choose_cached_partitions(parts, moved, {}, sized(parts, 4), 320 * 4),
            (std::vector<std::uint32_t>{0, 1, 3, 4}));
  const std::vector<std::uint64_t> one{0, 0, 0, 0, 50};
  EXPECT_EQ(choose_cached_partitions(parts, one, {}, sized(parts, 4), 200 * 4),
            (std::vector<std::uint32_t>{0, 4}));
}

TEST(EdgeCache, OnlyEligibleNonEmptyPartitionsAreCached) {
  const auto parts = partitions({1, 100, 2, 10, 10}, {100, 0, 100, 20, 100});
  const std::vector<std::uint8_t> mine{0, 1, 1, 0, 1};
  EXPECT_EQ(choose_cached_partitions(parts, {}, mine, sized(parts, 4), 1000 * 4),
            (std::vector<std::uint32_t>{2, 4}));
}

// A graph beyond host memory: a partition in the file costs its bytes at the storage's bandwidth,
// so it outranks a denser partition that host memory holds, and a measured one that moved more.
TEST(EdgeCache, PartitionsDearerToBringRankFirst) {
  // Edges per vertex: 100, 1, 50, 2, 10; partitions 1, 3 and 4 in the file, 30 times dearer.
  const auto parts = partitions({1, 100, 2, 10, 10}, {100, 100, 100, 20, 100});
  const std::vector<double> cost{1, 30, 1, 30, 30};
  // Unmeasured, room for 250 edges: 4 (10 x 30), 0 (100), 3 (2 x 30), where costs equal would
  // take 0, 2 (50) and 3.
  EXPECT_EQ(choose_cached_partitions(parts, {}, {}, sized(parts, 4), 250 * 4, cost),
            (std::vector<std::uint32_t>{0, 3, 4}));
  EXPECT_EQ(choose_cached_partitions(parts, {}, {}, sized(parts, 4), 250 * 4,
                                     std::vector<double>(5, 30.0)),
            (std::vector<std::uint32_t>{0, 2, 3}));
  // Measured, 3 and 4 alone in the file, room for 120 edges: 3 and 4 (2.5 and 1.25 bytes moved
  // per byte, 30 times dearer) before 1 from host memory (7.5), which costs equal would take
  // with 3.
  const std::vector<std::uint64_t> moved{100, 3000, 0, 200, 500};
  EXPECT_EQ(choose_cached_partitions(parts, moved, {}, sized(parts, 4), 120 * 4,
                                     std::vector<double>{1, 1, 1, 30, 30}),
            (std::vector<std::uint32_t>{3, 4}));
  EXPECT_EQ(choose_cached_partitions(parts, moved, {}, sized(parts, 4), 120 * 4),
            (std::vector<std::uint32_t>{1, 3}));
}

// Compressed lists (and packed weights) take fewer bytes in the cache, so the same room holds
// more partitions.
TEST(EdgeCache, CompressedListsLetMorePartitionsFit) {
  BuildOptions build;
  build.undirected = true;
  build.weights = parse_weight_spec("random:1-64", 1);
  Graph g = build_graph(generate_kronecker(10, 8, 1), build);
  compress(g);
  const auto parts = partition_by_edges(g, 4096, g.bytes_per_edge());
  const std::vector<std::uint64_t> raw = cache_sizes(g, parts, false, false);
  const std::vector<std::uint64_t> packed = cache_sizes(g, parts, false, true);
  const std::vector<std::uint64_t> weighted = cache_sizes(g, parts, true, true);
  std::uint64_t raw_total = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Partition& p = parts[i];
    EXPECT_EQ(raw[i], p.num_edges() * 4);
    EXPECT_EQ(packed[i], g.compressed.range_bytes(p.first_vertex, p.last_vertex));
    // weights 1..64: 6 bits each, packed beside the compressed lists
    ASSERT_EQ(g.compressed.weight_width, 6u);
    EXPECT_EQ(weighted[i], packed[i] + (p.num_edges() * 6 + 7) / 8);
    raw_total += raw[i];
  }
  const std::uint64_t half = raw_total / 2;
  EXPECT_GT(choose_cached_partitions(parts, {}, {}, packed, half).size(),
            choose_cached_partitions(parts, {}, {}, raw, half).size());
}

TEST(EdgeCache, ThePlanGivesTheCacheWhatTheBudgetLeaves) {
  const PlanGraph plan_graph;
  const auto& [g, parts, n] = plan_graph;
  EngineOptions o = plan_graph.options();
  const MemoryPlan free = plan_memory(g, parts, 4, false, o, 0);
  EXPECT_EQ(free.cache_bytes, 0u);  // no budget: the CPU backend, no cache
  const std::uint64_t base = free.vertex_bytes + free.staging_bytes;
  const std::uint64_t half = base + free.edge_bytes / 2;
  const MemoryPlan plan = plan_memory(g, parts, 4, false, o, half);
  EXPECT_FALSE(plan.in_memory);
  EXPECT_EQ(plan.cache_bytes, free.edge_bytes / 2);
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, base + free.edge_bytes).cache_bytes, 0u);
  o.cache = false;
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, half).cache_bytes, 0u);
  o.cache = true;
  o.in_memory = false;  // edges in host memory: no cache either
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, half).cache_bytes, 0u);
  o.in_memory = true;
  o.transfer = TransferPolicy::unified;
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, half).cache_bytes, 0u);
}

TEST(MemoryPlan, AGpuRankCountsItsExchangeArrays) {
  const PlanGraph plan_graph;
  const auto& [g, parts, n] = plan_graph;
  EngineOptions o = plan_graph.options();
  EXPECT_EQ(plan_memory(g, parts, 4, true, o, 0).exchange_bytes, 0u);  // one GPU
  // Automatic: the agreed deltas and their changes, then V/N pairs of 8 bytes, N times more
  // gathered, and the count.
  EXPECT_EQ(plan_memory(g, parts, 4, true, o, 0, 2).exchange_bytes,
            2 * 4 * n + (n + 1) / 2 * 8 * 3 + 8);
  o.exchange = Exchange::dense;
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, 0, 2).exchange_bytes, 4 * n);
  // Changes in the ranks' layout (a reduce-scatter): its slots, padding included.
  EXPECT_EQ(plan_memory(g, parts, 4, true, o, 0, 2, 0, {}, n + 6).exchange_bytes,
            4 * n + 4 * (n + 6));
  o.exchange = Exchange::sparse;
  const MemoryPlan sparse = plan_memory(g, parts, 4, false, o, 0, 4);
  EXPECT_EQ(sparse.exchange_bytes, 4 * n + n * 8 * 5 + 8);
  // Room for every edge: a rank still keeps them in the edge cache, never whole-graph resident.
  const std::uint64_t roomy = sparse.needed() + sparse.edge_bytes;
  const MemoryPlan rank = plan_memory(g, parts, 4, false, o, roomy, 4);
  EXPECT_FALSE(rank.in_memory);
  EXPECT_EQ(rank.cache_bytes, sparse.edge_bytes);
  // One GPU keeps no exchange arrays but the frontier loop's buffers, which ranks do not run.
  EXPECT_TRUE(
      plan_memory(g, parts, 4, false, o,
                  roomy - sparse.exchange_bytes + frontier_loop_bytes(o.frontier_loop_edges, n))
          .in_memory);
  // The budget must hold it, and the message says so.
  try {
    plan_memory(g, parts, 4, false, o, sparse.vertex_bytes + sparse.staging_bytes, 4);
    FAIL() << "planned a rank without its exchange arrays";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find(", staging "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(" and the exchange with the other ranks "),
              std::string::npos)
        << e.what();
  }
}

// Under auto the pairs' room is what the ranks' calibration says auto can use
// (automatic_pair_capacity), and the edge cache gets the rest. Here the all-reduce of the whole
// array costs less than gathering any pair: room for one. Forced sparse keeps room for every
// vertex; dense for none.
TEST(MemoryPlan, AutomaticPairsTakeTheRoomTheCalibrationSaysTheyCanUse) {
  const PlanGraph plan_graph;
  const auto& [g, parts, n] = plan_graph;
  EngineOptions o = plan_graph.options();
  ExchangeCalibration c;
  for (std::size_t i = 0; i < kExchangeSizes; ++i) {
    const std::uint64_t bytes = (std::uint64_t{4096} << i) * 16;
    c.all_reduce.at[i] = {bytes / 4, 1e-9};
    c.all_gather.at[i] = c.apply_pairs.at[i] = {bytes, 1e-6 * static_cast<double>(i + 1)};
  }
  ASSERT_TRUE(c.measured());
  const std::uint64_t room = automatic_pair_capacity(c, {n, 2, 0, 4, false});
  ASSERT_EQ(room, 1u);
  const MemoryPlan plan = plan_memory(g, parts, 4, false, o, 0, 2, 0, c);
  EXPECT_EQ(plan.pair_capacity, room);
  EXPECT_EQ(plan.exchange_bytes, 4 * n + room * 8 * 3 + 8);
  const MemoryPlan unmeasured = plan_memory(g, parts, 4, false, o, 0, 2);
  EXPECT_EQ(unmeasured.pair_capacity, (n + 1) / 2);
  // The same budget leaves the cache the bytes the smaller room frees.
  const std::uint64_t budget = unmeasured.needed() + unmeasured.edge_bytes / 4;
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, budget, 2, 0, c).cache_bytes -
                plan_memory(g, parts, 4, false, o, budget, 2).cache_bytes,
            unmeasured.exchange_bytes - plan.exchange_bytes);
  o.exchange = Exchange::sparse;
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, 0, 2, 0, c).pair_capacity, n);
  o.exchange = Exchange::dense;
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, 0, 2, 0, c).pair_capacity, 0u);
}

// Out of core, a GPU rank's edge cache gets what the budget leaves after the exchange arrays too,
// in every form: the arrays and the cache never overcommit the budget together.
TEST(MemoryPlan, ARanksEdgeCacheGetsWhatTheExchangeLeaves) {
  const PlanGraph plan_graph;
  const auto& [g, parts, n] = plan_graph;
  EngineOptions o = plan_graph.options();
  for (const Exchange form : {Exchange::dense, Exchange::sparse, Exchange::automatic}) {
    for (const bool accumulative : {false, true}) {
      SCOPED_TRACE(std::string(to_string(form)) + (accumulative ? ", accumulative" : ""));
      o.exchange = form;
      const MemoryPlan free = plan_memory(g, parts, 4, accumulative, o, 0, 2);
      ASSERT_GT(free.exchange_bytes, 0u);
      const std::uint64_t budget = free.needed() + free.edge_bytes / 2;
      const MemoryPlan plan = plan_memory(g, parts, 4, accumulative, o, budget, 2);
      EXPECT_EQ(plan.exchange_bytes, free.exchange_bytes);
      EXPECT_EQ(plan.cache_bytes, free.edge_bytes / 2);
      EXPECT_EQ(plan.needed() + plan.cache_bytes, budget);
    }
  }
}

TEST(MemoryPlan, PullBlocksAreSizedToHalfTheL2AndCapped) {
  // 1000 values of 4 bytes, half an L2 of 1000 bytes each range: 8 ranges.
  EXPECT_EQ(pull_blocks_for(1000, 4, 0, 1000), 8u);
  EXPECT_EQ(pull_blocks_for(1000, 4, 0, 8000), 1u);  // the values fit half the L2
  EXPECT_EQ(pull_blocks_for(1000, 4, 0, 0), 1u);     // no L2 (the CPU backend)
  EXPECT_EQ(pull_blocks_for(1000, 4, 0, 2), kMaxPullBlocks);
  EXPECT_EQ(pull_blocks_for(1000, 4, 5, 0), 5u);  // asked for: the L2 does not matter
  EXPECT_EQ(pull_blocks_for(3, 4, 9, 0), 3u);     // never more ranges than vertices
  EXPECT_EQ(pull_blocks_for(0, 4, 9, 0), 1u);
}

TEST(MemoryPlan, PullBlocksNeedGpuMemoryAPullAndRoomForTheirCuts) {
  const PlanGraph plan_graph;
  const auto& [g, parts, n] = plan_graph;
  EngineOptions o = plan_graph.options();
  o.direction = Direction::automatic;
  o.pull_blocks = 6;
  const std::uint64_t l2 = 1 << 20;
  const MemoryPlan free = plan_memory(g, parts, 4, false, o, 0, 0, l2);
  const std::uint64_t whole = free.needed() + free.edge_bytes;  // in GPU memory, no blocks
  const std::uint64_t cuts = 5 * n * 4;
  const MemoryPlan blocked = plan_memory(g, parts, 4, false, o, whole + cuts, 0, l2);
  EXPECT_TRUE(blocked.in_memory);
  EXPECT_EQ(blocked.pull_blocks, 6u);
  EXPECT_EQ(blocked.block_bytes, cuts);
  EXPECT_EQ(blocked.needed(), whole + cuts);
  // No room for the cuts: in GPU memory all the same, unblocked.
  const MemoryPlan tight = plan_memory(g, parts, 4, false, o, whole + cuts - 1, 0, l2);
  EXPECT_TRUE(tight.in_memory);
  EXPECT_EQ(tight.pull_blocks, 1u);
  EXPECT_EQ(tight.block_bytes, 0u);
  // Out of core, on the CPU backend (no L2), pushing, or a rank: none.
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, whole - 1, 0, l2).pull_blocks, 1u);
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, whole + cuts, 0, 0).pull_blocks, 1u);
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, whole + cuts, 2, l2).pull_blocks, 1u);
  o.direction = Direction::push;
  EXPECT_EQ(plan_memory(g, parts, 4, false, o, whole + cuts, 0, l2).pull_blocks, 1u);
  // Automatic: this graph's 4-byte values in ranges of half a 1 KiB L2.
  o.direction = Direction::pull;
  o.pull_blocks = 0;
  const MemoryPlan sized = plan_memory(g, parts, 4, false, o, whole + cuts * 2, 0, 1024);
  EXPECT_EQ(sized.pull_blocks, pull_blocks_for(n, 4, 0, 1024));
  EXPECT_GT(sized.pull_blocks, 1u);
}

// A run that may pull on a directed graph reads its in-lists: their offsets are vertex data,
// their largest partition bounds staging, GPU memory holds them beside the edges, and their
// gathers are not blocked. Pushing, none of it.
TEST(MemoryPlan, InListsCountWhenTheRunMayPull) {
  Graph g = [] {
    EdgeList star = generate_star(3000);  // every leaf points at the hub: one long in-list
    star.symmetric_input = false;
    std::swap(star.sources, star.targets);
    return build_graph(std::move(star), {});
  }();
  g.in_edges = in_edges_of(g);
  const auto parts = partition_by_edges(g, 4096, g.bytes_per_edge());
  const std::uint64_t n = g.num_vertices();
  EngineOptions o;
  o.partition_bytes = 4096;
  o.filter_merge = 1;  // staging holds a partition of 1024 edges, or a larger one
  o.pull_blocks = 6;
  o.direction = Direction::push;
  const MemoryPlan pushing = plan_memory(g, parts, 4, false, o, 0);
  EXPECT_EQ(pushing.in_edge_bytes, 0u);
  o.direction = Direction::automatic;
  const MemoryPlan pulling = plan_memory(g, parts, 4, false, o, 0);
  EXPECT_EQ(pulling.in_edge_bytes, g.num_edges() * 4);
  // The in-offsets, beside what pull adds on a symmetric graph (the gathering bitmap).
  EXPECT_EQ(pulling.vertex_bytes, pushing.vertex_bytes + (n + 63) / 64 * 8 + (n + 1) * 8);
  // The hub's 2999 in-edges fill a partition of their own, larger than any of its out-lists'.
  EXPECT_EQ(pulling.staging_edges, 2999u);
  EXPECT_EQ(pushing.staging_edges, 1024u);
  const std::uint64_t whole = pulling.needed() + pulling.edge_bytes + pulling.in_edge_bytes;
  const std::uint64_t l2 = 1 << 20;
  const MemoryPlan fits = plan_memory(g, parts, 4, false, o, whole, 0, l2);
  EXPECT_TRUE(fits.in_memory);
  EXPECT_EQ(fits.needed(), whole);
  EXPECT_EQ(fits.pull_blocks, 1u);
  EXPECT_FALSE(plan_memory(g, parts, 4, false, o, whole - 1, 0, l2).in_memory);
}

}  // namespace
}  // namespace ooc
