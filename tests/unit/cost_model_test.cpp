#include "ooc/engine/cost_model.hpp"

#include <gtest/gtest.h>

#include "ooc/core/error.hpp"
#include "ooc/engine/calibration.hpp"
#include "ooc/engine/direction.hpp"

namespace ooc {
namespace {

TEST(LinesSpanned, CountsEveryTouchedLine) {
  EXPECT_EQ(lines_spanned(0, 0, 128), 0u);
  EXPECT_EQ(lines_spanned(0, 128, 128), 1u);   // aligned, exactly one line
  EXPECT_EQ(lines_spanned(64, 128, 128), 2u);  // misaligned: am(v) = 1
  EXPECT_EQ(lines_spanned(64, 64, 128), 1u);   // misaligned but inside one line: am(v) = 0
  EXPECT_EQ(lines_spanned(124, 8, 128), 2u);   // 8 bytes across a boundary
  EXPECT_EQ(lines_spanned(0, 129, 128), 2u);
}

// Beamer's direction-optimising BFS with GAP's alpha = 15 and beta = 18, in GPU memory.
TEST(Direction, BfsSwitchesToPullOnABigFrontierAndBackWhenItShrinks) {
  DirectionState state;
  const std::uint64_t n = 1800;
  // Top-down while the frontier's edges are at most the unvisited edges / alpha.
  EXPECT_FALSE(choose_pull({1, 150, 1000, 15000}, true, true, n, state));
  EXPECT_FALSE(state.pulled);
  EXPECT_TRUE(choose_pull({10, 1001, 1000, 15000}, true, true, n, state));
  EXPECT_TRUE(state.pulled);
  // Bottom-up while the frontier grows or holds at least V / beta = 100 vertices.
  EXPECT_TRUE(choose_pull({500, 100, 500, 5000}, true, true, n, state));
  EXPECT_TRUE(choose_pull({120, 100, 300, 3000}, true, true, n, state));  // shrinking, not small
  EXPECT_TRUE(choose_pull({150, 100, 200, 2000}, true, true, n, state));  // small, growing
  EXPECT_FALSE(choose_pull({99, 100, 100, 1000}, true, true, n, state));  // shrinking and small
  EXPECT_FALSE(state.pulled);
}

TEST(Direction, GatheringProgramsPullOnceTheFrontierHoldsHalfTheEdgesToRead) {
  DirectionState state;
  EXPECT_TRUE(choose_pull({100, 500, 200, 1000}, false, true, 1000, state));
  EXPECT_FALSE(choose_pull({100, 499, 200, 1000}, false, true, 1000, state));
}

TEST(Direction, OutOfCoreTheFewerBytesOverTheLinkWin) {
  DirectionState state;
  EXPECT_TRUE(choose_pull({100, 10, 200, 10000, 4096, 4095}, true, false, 1000, state));
  EXPECT_FALSE(choose_pull({100, 10000, 200, 10, 4096, 4096}, false, false, 1000, state));
}

// Out of core with every list either direction reads in the edge cache, no bytes cross the link:
// BFS (a pull floor) takes Beamer's switch as in GPU memory; the others push.
TEST(Direction, OutOfCoreWithEverythingCachedBfsSwitchesAsInGpuMemory) {
  const std::uint64_t n = 1'000'000;
  DirectionState state;
  EXPECT_FALSE(choose_pull({1, 150, 1000, 15000, 0, 0}, true, false, n, state));
  EXPECT_TRUE(choose_pull({10, 1001, 1000, 15000, 0, 0}, true, false, n, state));
  // One byte over the link on either side and the bytes decide again.
  EXPECT_FALSE(choose_pull({10, 1001, 1000, 15000, 0, 1}, true, false, n, state));
  EXPECT_TRUE(choose_pull({10, 1001, 1000, 15000, 1, 0}, true, false, n, state));
  DirectionState other;
  EXPECT_FALSE(choose_pull({100, 1000, 200, 1000, 0, 0}, false, false, 1000, other));
}

TEST(Direction, NothingToSendOrNoOneToGatherPushes) {
  DirectionState state;
  EXPECT_FALSE(choose_pull({0, 0, 100, 1000, 1, 0}, false, false, 1000, state));
  EXPECT_FALSE(choose_pull({10, 1000, 0, 0}, false, true, 1000, state));
}

// Hand-worked with HyTGraph's constants (m = 128 B, MR = 256, RTT = 1): a 32 MiB partition of
// 4-byte edges, 8M edges.
TEST(CostModel, FormulasByHand) {
  const CostConstants c = CostConstants::hytgraph();
  PartitionActivity a;
  a.edges = 8u << 20;
  a.active_vertices = 1000;
  a.active_edges = 100000;
  a.requests = 5000;
  const TransferCosts t = transfer_costs(a, 4, c);
  // (1) ceil(8M * 4 / 128 / 256) = 1024 round trips.
  EXPECT_DOUBLE_EQ(t.filter, 1024.0);
  // (2) ceil((100000 * 4 + 1000 * 12) / 32768) = ceil(12.57) = 13.
  EXPECT_DOUBLE_EQ(t.compaction, 13.0);
  // (3) ceil(5000 / 256) = 20, times RTT_zc = 0.625 + 0.375 * 100000 / 8388608.
  EXPECT_DOUBLE_EQ(t.zerocopy, 20.0 * (0.625 + 0.375 * 100000.0 / 8388608.0));
  // 13 < 0.8 * 1024, but 13 >= 0.4 * 12.6: not compaction; 12.6 < 1024: zero-copy.
  EXPECT_EQ(choose_engine(t, c), TransferEngine::zerocopy);
}

TEST(CostModel, ManyActiveVerticesWithFewEdgesEachGoToCompaction) {
  const CostConstants c = CostConstants::hytgraph();
  PartitionActivity a;
  a.edges = 8u << 20;
  a.active_vertices = 200000;  // degree 2 each, scattered: one or two lines per vertex
  a.active_edges = 400000;
  a.requests = 260000;
  const TransferCosts t = transfer_costs(a, 4, c);
  EXPECT_DOUBLE_EQ(t.compaction, 123.0);  // ceil((1.6M + 2.4M) / 32768)
  EXPECT_EQ(choose_engine(t, c), TransferEngine::compaction);
}

TEST(CostModel, MostlyActivePartitionsAreCopiedWhole) {
  const CostConstants c = CostConstants::hytgraph();
  PartitionActivity a;
  a.edges = 8u << 20;
  a.active_vertices = 250000;
  a.active_edges = 7u << 20;
  a.requests = 400000;
  EXPECT_EQ(choose_engine(transfer_costs(a, 4, c), c), TransferEngine::filter);
}

// HyTGraph Fig. 4: 9 vertices, 128 edges in two subsets of 64 edges, one of 6 vertices and one
// of 3. Both subsets have half the edges active, yet zero-copy needs twice as many requests for
// the 6-vertex one. Degrees 11,11,11,11,10,10 then 21,21,22, stored back to back.
TEST(CostModel, PaperToyExample) {
  const std::uint64_t degrees[9] = {11, 11, 11, 11, 10, 10, 21, 21, 22};
  std::uint64_t start = 0, green_requests = 0, gray_requests = 0;
  for (int v = 0; v < 9; ++v) {
    const std::uint64_t lines = lines_spanned(start * 4, degrees[v] * 4, 128);
    (v < 6 ? green_requests : gray_requests) += lines;
    start += degrees[v];
  }
  EXPECT_EQ(green_requests, 7u);  // 6 lists, one of them straddling a line boundary
  EXPECT_EQ(gray_requests, 4u);   // 3 lists, one straddling

  PartitionActivity green{128, 6, 64, green_requests}, gray{128, 3, 64, gray_requests};
  // With the paper's MR = 256 everything fits in one round trip: Tef = Tec = 1, and
  // Tiz = 1 * (0.625 + 0.375 * 0.5) = 0.8125 for both, so both pick zero-copy.
  const CostConstants paper = CostConstants::hytgraph();
  EXPECT_DOUBLE_EQ(transfer_costs(green, 4, paper).zerocopy, 0.8125);
  EXPECT_EQ(choose_engine(transfer_costs(green, 4, paper), paper), TransferEngine::zerocopy);
  EXPECT_EQ(choose_engine(transfer_costs(gray, 4, paper), paper), TransferEngine::zerocopy);
  // Scaled to one request per round trip (MR = 1) the difference shows: green costs
  // Tef = 4, Tec = ceil(328/128) = 3, Tiz = 7 * 0.8125 = 5.69 -> filter;
  // gray costs Tef = 4, Tec = ceil(292/128) = 3, Tiz = 4 * 0.8125 = 3.25 -> zero-copy.
  CostConstants one = paper;
  one.max_requests = 1;
  const TransferCosts g = transfer_costs(green, 4, one), y = transfer_costs(gray, 4, one);
  EXPECT_DOUBLE_EQ(g.filter, 4.0);
  EXPECT_DOUBLE_EQ(g.compaction, 3.0);
  EXPECT_DOUBLE_EQ(g.zerocopy, 7 * 0.8125);
  EXPECT_EQ(choose_engine(g, one), TransferEngine::filter);
  EXPECT_DOUBLE_EQ(y.zerocopy, 4 * 0.8125);
  EXPECT_EQ(choose_engine(y, one), TransferEngine::zerocopy);
}

// The measured terms: compaction pays its CPU gather, zero-copy its slower round trip.
TEST(CostModel, MeasuredTermsByHand) {
  CostConstants c = CostConstants::hytgraph();
  c.link_bandwidth = 50e9;
  c.compaction_bandwidth = 25e9;  // the CPU gathers at half the link's speed
  c.zerocopy_round_trip = 1.5;
  const PartitionActivity a{8u << 20, 1000, 100000, 5000};
  const TransferCosts t = transfer_costs(a, 4, c);
  // 412000 compacted bytes: 13 round trips to send, and 412000 / 25e9 s = 16.48 us to gather,
  // which is 16.48 us * 50e9 / 32768 = 25.15 round trips.
  EXPECT_DOUBLE_EQ(t.compaction, 13.0 + 412000.0 / 25e9 * 50e9 / 32768.0);
  EXPECT_DOUBLE_EQ(t.zerocopy, 20.0 * (0.625 + 0.375 * 100000.0 / 8388608.0) * 1.5);
  EXPECT_DOUBLE_EQ(t.filter, 1024.0);
}

// Many short lists (500K active vertices of degree 4, a quarter of the edges): by the paper's
// constants compaction wins (Tec = 428 < 0.8 * 1024 and < 0.4 * Tiz = 614); once the CPU gather
// at 20 GB/s is counted (another 14 MB / 20 GB/s = 1186 round trips) it loses, and so does
// zero-copy (Tiz = 1652 > 1024): the partition is copied whole.
TEST(CostModel, ShortListsAreCompactedOnlyWhenTheCpuKeepsUp) {
  const PartitionActivity sparse{8u << 20, 500000, 2000000, 550000};
  const CostConstants paper = CostConstants::hytgraph();
  EXPECT_DOUBLE_EQ(transfer_costs(sparse, 4, paper).compaction, 428.0);
  EXPECT_EQ(choose_engine(transfer_costs(sparse, 4, paper), paper), TransferEngine::compaction);
  const CostConstants measured;
  EXPECT_EQ(choose_engine(transfer_costs(sparse, 4, measured), measured), TransferEngine::filter);
}

TEST(CostModel, PoliciesOverrideAndResidentEdgesAreFree) {
  const CostConstants c;
  const PartitionActivity a{100, 1, 1, 1};
  EXPECT_EQ(engine_for(TransferPolicy::filter, false, a, 4, c), TransferEngine::filter);
  EXPECT_EQ(engine_for(TransferPolicy::compaction, false, a, 4, c), TransferEngine::compaction);
  EXPECT_EQ(engine_for(TransferPolicy::unified, false, a, 4, c), TransferEngine::unified);
  EXPECT_EQ(engine_for(TransferPolicy::filter, true, a, 4, c), TransferEngine::resident);
}

// A partition in the graph's file (the host tier) comes by a read first: 1,000 active lists of 4
// edges in a 64 MiB partition, on storage of 2 GB/s and 100 us a read. In host memory zero-copy
// reads them (4 requests' round trips); in the file zero-copy cannot, and the reads decide:
// in one run, 108 us against the whole's 33.7 ms, they are compacted; each a read of its own,
// 1,000 reads take 100 ms, and the partition is read and copied whole.
TEST(CostModel, APartitionInTheFileIsReadWholeOrByItsActiveListsNeverByZeroCopy) {
  CostConstants c;
  c.storage_bandwidth = 2e9;
  c.storage_latency = 100e-6;
  PartitionActivity a{16u << 20, 1000, 4000, 1000};
  EXPECT_EQ(choose_engine(transfer_costs(a, 4, c), c), TransferEngine::zerocopy);
  a.storage_bytes = std::uint64_t{64} << 20;
  a.storage_active_bytes = 16000;
  a.storage_reads = 1;
  const TransferCosts one_run = transfer_costs(a, 4, c);
  EXPECT_EQ(one_run.zerocopy, kNoZeroCopy);
  EXPECT_EQ(choose_engine(one_run, c), TransferEngine::compaction);
  const double per_second = c.link_bandwidth / (128.0 * 256);  // round trips a second
  EXPECT_NEAR(one_run.filter, 2048 + (100e-6 + (64 << 20) / 2e9) * per_second, 1e-6);
  a.storage_reads = 1000;
  const TransferCosts scattered = transfer_costs(a, 4, c);
  EXPECT_NEAR(scattered.compaction - one_run.compaction, 999 * 100e-6 * per_second, 1e-6);
  EXPECT_EQ(choose_engine(scattered, c), TransferEngine::filter);
  // Storage not measured: priced as in host memory.
  c.storage_bandwidth = 0;
  EXPECT_EQ(choose_engine(transfer_costs(a, 4, c), c), TransferEngine::zerocopy);
}

// A partition in the file: the bytes a filter task reads (its compressed lists and packed
// weights, or its raw edges), those of its active lists (a compaction task's, less the index),
// and the reads as counted, or where the survey does not count them (the GPU's) at most one per
// active list and one per kStorageGapBytes of the partition and one more.
TEST(CostModel, APartitionInTheFileIsPricedByItsBytesAndAtMostItsReads) {
  PartitionActivity raw{1u << 20, 300, 9000, 400};
  price_in_file(raw, 8, kCompactionIndexBytes, 7);
  EXPECT_EQ(raw.storage_bytes, std::uint64_t{8} << 20);
  EXPECT_EQ(raw.storage_active_bytes, 9000u * 8);
  EXPECT_EQ(raw.storage_reads, 7u);
  price_in_file(raw, 8, kCompactionIndexBytes, kUncountedReads);
  EXPECT_EQ(raw.storage_reads, 129u);  // 8 MiB / 64 KiB + 1, fewer than the 300 lists
  PartitionActivity compressed{1u << 20, 40, 9000, 400};
  compressed.filter_bytes = 3u << 20;
  compressed.compacted_bytes = 20000 + 40 * kCompressedIndexBytes;
  price_in_file(compressed, 4, kCompressedIndexBytes, kUncountedReads);
  EXPECT_EQ(compressed.storage_bytes, std::uint64_t{3} << 20);
  EXPECT_EQ(compressed.storage_active_bytes, 20000u);
  EXPECT_EQ(compressed.storage_reads, 40u);  // one per active list
}

// docs/cost-model.md's H200 figures: pcie-bench's 8- and 32-element lists at 17.5 and 51.1 GB/s
// give gamma 0.64; the copy at 55.13 GB/s against merged zero-copy reads at 50.56 gives 1.09.
TEST(Calibration, SetsTheLinkConstantsFromMeasurements) {
  CostConstants base;
  base.alpha = 0.7;
  const CostConstants c = calibrated(base, {55.13, 50.56, 17.5, 51.1});
  EXPECT_DOUBLE_EQ(c.link_bandwidth, 55.13e9);
  EXPECT_NEAR(c.zerocopy_round_trip, 1.0904, 1e-4);
  EXPECT_NEAR(c.gamma, 0.640, 1e-3);
  EXPECT_EQ(c.alpha, 0.7);  // the rest stays
  EXPECT_EQ(c.compaction_bandwidth, base.compaction_bandwidth);
}

TEST(Calibration, RefusesFiguresTheModelCannotHold) {
  try {
    calibrated({}, {55, 0, 17.5, 51.1});
    FAIL() << "accepted a zero figure";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(),
                 "link calibration: the zero-copy read is 0.000000 GB/s; it must be positive");
  }
  // Longer lists slower per byte than a fixed cost per request allows.
  EXPECT_THROW(calibrated({}, {55, 50, 60, 10}), InvalidInput);
}

// One iteration's timings move each constant half way to what they imply, by hand: 10 GB
// copied in 0.25 s is 40 GB/s; 1e8 full-line requests (12.8 GB, share 1) in 0.4 s against the
// 0.32 s formula (3) predicts at 40 GB/s is a round trip of 1.25.
TEST(Calibration, AdaptsHalfWayToEachIterationsTimings) {
  CostConstants base;
  base.link_bandwidth = 50e9;
  base.zerocopy_round_trip = 1.0;
  EngineTimings t;
  t.filter_bytes = 10e9;
  t.filter_seconds = 0.25;
  t.zerocopy_requests = 1e8;
  t.zerocopy_seconds = 0.4;
  t.zerocopy_share = 1.0;
  const CostConstants c = adapted(base, t);
  EXPECT_DOUBLE_EQ(c.link_bandwidth, 45e9);
  // Predicted at the new 45 GB/s: 12.8 GB / 45 GB/s = 0.2844 s; 0.4 / 0.2844 = 1.40625.
  EXPECT_NEAR(c.zerocopy_round_trip, 1.0 + 0.5 * (0.4 / (12.8e9 / 45e9) - 1.0), 1e-12);
  EXPECT_EQ(c.gamma, base.gamma);  // the rest stays
  // A partly used line costs less by formula (3): at share 0 only gamma of a round trip.
  t.zerocopy_share = 0.0;
  const CostConstants sparse = adapted(base, t);
  EXPECT_NEAR(sparse.zerocopy_round_trip, 1.0 + 0.5 * (0.4 / (12.8e9 * base.gamma / 45e9) - 1.0),
              1e-12);
}

TEST(Calibration, IgnoresTimingsTooShortAndBoundsTheRoundTrip) {
  const CostConstants base;
  EngineTimings tiny;
  tiny.filter_bytes = 1e6;
  tiny.filter_seconds = kMinTimedSeconds / 2;
  tiny.zerocopy_requests = 10;
  tiny.zerocopy_seconds = kMinTimedSeconds / 2;
  const CostConstants same = adapted(base, tiny);
  EXPECT_EQ(same.link_bandwidth, base.link_bandwidth);
  EXPECT_EQ(same.zerocopy_round_trip, base.zerocopy_round_trip);
  // A zero-copy kernel that took a second for one request says nothing of the link.
  EngineTimings stalled;
  stalled.zerocopy_requests = 1;
  stalled.zerocopy_seconds = 1;
  EXPECT_DOUBLE_EQ(adapted(base, stalled).zerocopy_round_trip,
                   base.zerocopy_round_trip + 0.5 * (16.0 - base.zerocopy_round_trip));
}

}  // namespace
}  // namespace ooc
