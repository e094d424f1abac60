// The price of a GPU rank's exchange in each form (exchange_cost.hpp), from calibrations like
// those NCCL gives over NVLink and between hosts, and the choice Exchange::automatic makes.
#include "ooc/engine/exchange_cost.hpp"

#include <gtest/gtest.h>

namespace ooc {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// latency + bytes / bandwidth at the sizes exchange_sizes gives for `largest`.
SizeTimes line(double latency, double bandwidth, std::uint64_t largest, std::uint64_t unit) {
  SizeTimes t;
  const auto sizes = exchange_sizes(largest, unit);
  for (std::size_t i = 0; i < kExchangeSizes; ++i)
    t.at[i] = {sizes[i], latency + static_cast<double>(sizes[i]) / bandwidth};
  return t;
}

// Kron-26 on two ranks: V = 2^26, the dense all-reduce 256 MiB.
constexpr std::uint64_t kVertices = std::uint64_t{1} << 26;
constexpr std::uint64_t kDense = 4 * kVertices;

// Over NVLink (two H200s): the all-reduce of 256 MiB in 1.3 ms, about 200 GB/s; the all-gather
// slower per byte, and applying a pair a random atomic (about 10 G pairs/s, 80 GB/s of pairs).
ExchangeCalibration nvlink() {
  ExchangeCalibration c;
  c.all_reduce = line(20e-6, 200e9, kDense, 4);
  c.reduce_scatter = line(15e-6, 400e9, kDense, 4);
  c.all_gather = line(20e-6, 150e9, kDense, 16);
  c.apply_pairs = line(5e-6, 80e9, kDense, 16);
  c.change_seconds = 0.2e-3;
  return c;
}

// Between hosts at 400 Gb/s: the same kernels, the collectives at 50 GB/s of bus bandwidth
// (an all-reduce of two ranks moves its bytes once each way: algorithm bandwidth 50 GB/s too).
ExchangeCalibration network() {
  ExchangeCalibration c = nvlink();
  c.all_reduce = line(30e-6, 50e9, kDense, 4);
  c.all_gather = line(30e-6, 50e9, kDense, 16);
  return c;
}

ExchangeShape shape(std::uint64_t busiest, bool accumulative = false) {
  return {kVertices, 2, busiest, 4, accumulative};
}

TEST(ExchangeCost, SizesRunFromFourKibToTheLargestInWholeUnits) {
  const auto sizes = exchange_sizes(kDense, 16);
  EXPECT_EQ(sizes.front(), kSmallestExchangeBytes);
  EXPECT_EQ(sizes.back(), kDense);
  for (std::size_t i = 1; i < kExchangeSizes; ++i) {
    EXPECT_GT(sizes[i], sizes[i - 1]);
    EXPECT_EQ(sizes[i] % 16, 0u);
  }
  // A graph smaller than the smallest size: every size is the whole array, at least one unit.
  for (const std::uint64_t size : exchange_sizes(400, 4))
    EXPECT_EQ(size, 400u);
  for (const std::uint64_t size : exchange_sizes(4, 16))
    EXPECT_EQ(size, 16u);
}

TEST(ExchangeCost, TimesAreInterpolatedAndCarriedOnPastTheLargestSize) {
  SizeTimes t;
  t.at = {{{1000, 1e-5}, {2000, 2e-5}, {4000, 2e-5}, {8000, 4e-5}, {16000, 8e-5}}};
  EXPECT_DOUBLE_EQ(t.seconds(0), 1e-5);  // below the smallest: its latency
  EXPECT_DOUBLE_EQ(t.seconds(1500), 1.5e-5);
  EXPECT_DOUBLE_EQ(t.seconds(3000), 2e-5);
  EXPECT_DOUBLE_EQ(t.seconds(12000), 6e-5);
  EXPECT_DOUBLE_EQ(t.seconds(32000), 16e-5);  // the last segment's 5 ns per byte
  // Noise that makes a larger size faster never makes more bytes cheaper past the end.
  t.at[4].seconds = 3e-5;
  EXPECT_DOUBLE_EQ(t.seconds(32000), 3e-5);
  // One size measured (a graph of under 4 KiB): its time at every size.
  SizeTimes one;
  one.at.fill({400, 7e-6});
  EXPECT_DOUBLE_EQ(one.seconds(100), 7e-6);
  EXPECT_DOUBLE_EQ(one.seconds(4000), 7e-6);
}

TEST(ExchangeCost, OverNvlinkTheDenseFormWinsWhereBytesAloneChoseSparse) {
  const ExchangeCalibration c = nvlink();
  // A quarter of the vertices changed on the busiest rank: half the dense bytes, so the old rule
  // took the sparse form; its all-gather and atomics cost more than the all-reduce.
  const ExchangeShape quarter = shape(kVertices / 4);
  EXPECT_TRUE(prefer_sparse(ExchangeCalibration{}, quarter));  // no calibration: bytes decide
  const ExchangePrice p = price_exchange(c, quarter);
  EXPECT_GT(p.sparse, p.dense);
  EXPECT_FALSE(prefer_sparse(c, quarter));
  // A few changes: the sparse form's latency alone, far below the dense all-reduce.
  EXPECT_TRUE(prefer_sparse(c, shape(1000)));
  EXPECT_TRUE(prefer_sparse(c, shape(kVertices / 100)));
  // Nothing changed anywhere: no collective at all.
  EXPECT_EQ(price_exchange(c, shape(0)).sparse, 0.0);
  EXPECT_TRUE(prefer_sparse(c, shape(0)));
}

TEST(ExchangeCost, OnASlowerLinkTheSparseFormWinsUpToMoreChanges) {
  const ExchangeCalibration fast = nvlink(), slow = network();
  // The crossover: the most changes for which each link still takes the sparse form.
  const std::uint64_t on_nvlink = automatic_pair_capacity(fast, shape(0));
  const std::uint64_t between_hosts = automatic_pair_capacity(slow, shape(0));
  EXPECT_GT(between_hosts, on_nvlink);
  // Bytes alone cross at V/N = 2^25 changes; time crosses earlier on both links here.
  EXPECT_LT(between_hosts, kVertices / 2);
  EXPECT_GT(on_nvlink, kVertices / 100);
}

// Auto's room for pairs is its crossover: sparse at it, dense one change past it. Past V/N the
// pairs would gather more than every vertex, so V/N bounds it, and without a calibration (bytes
// decide) it is V/N.
TEST(ExchangeCost, AutomaticRoomForPairsEndsWhereTheDenseFormWins) {
  for (const ExchangeCalibration& c : {nvlink(), network()}) {
    const std::uint64_t room = automatic_pair_capacity(c, shape(12345));  // busiest is ignored
    EXPECT_TRUE(prefer_sparse(c, shape(room)));
    EXPECT_FALSE(prefer_sparse(c, shape(room + 1)));
    EXPECT_LT(room, kVertices / 2);
  }
  EXPECT_EQ(automatic_pair_capacity(ExchangeCalibration{}, shape(0)), kVertices / 2);
  ExchangeShape three = shape(0);
  three.ranks = 3;
  EXPECT_EQ(automatic_pair_capacity(ExchangeCalibration{}, three), (kVertices + 2) / 3);
  // A link so slow per byte that sparse wins at every count: V/N, no more.
  ExchangeCalibration slow_reduce = nvlink();
  slow_reduce.all_reduce = line(1.0, 1e6, kDense, 4);
  EXPECT_EQ(automatic_pair_capacity(slow_reduce, shape(0)), kVertices / 2);
  // The dense form wins from the first change: room for one pair, so that a count runs and an
  // exchange with no changes still skips the collective.
  ExchangeCalibration fast_reduce = nvlink();
  fast_reduce.all_reduce = line(1e-9, 1e15, kDense, 4);
  EXPECT_FALSE(prefer_sparse(fast_reduce, shape(1)));
  EXPECT_EQ(automatic_pair_capacity(fast_reduce, shape(0)), 1u);
}

TEST(ExchangeCost, AnAccumulativeProgramsDenseFormAlsoPaysItsChangeKernel) {
  ExchangeCalibration c = nvlink();
  const ExchangePrice monotone = price_exchange(c, shape(kVertices / 8));
  const ExchangePrice accumulative = price_exchange(c, shape(kVertices / 8, true));
  EXPECT_DOUBLE_EQ(accumulative.dense - monotone.dense, c.change_seconds);
  EXPECT_DOUBLE_EQ(accumulative.sparse, monotone.sparse);
  // A change kernel slow enough tips the same shape to the sparse form.
  const ExchangeShape s = shape(kVertices / 8, true);
  EXPECT_FALSE(prefer_sparse(c, s));
  c.change_seconds = 10e-3;
  EXPECT_TRUE(prefer_sparse(c, s));
}

// An accumulative program whose ranks' layout scatters pays the reduce-scatter of the layout's
// slots, not the all-reduce of V values; a monotone program always the all-reduce.
TEST(ExchangeCost, AScatteringDenseFormPaysTheReduceScatterOfItsSlots) {
  const ExchangeCalibration c = nvlink();
  ExchangeShape s = shape(kVertices / 8, true);
  const double all_reduced = price_exchange(c, s).dense;
  s.scattered = kVertices + 64;
  EXPECT_DOUBLE_EQ(price_exchange(c, s).dense,
                   c.reduce_scatter.seconds((kVertices + 64) * 4) + c.change_seconds);
  EXPECT_LT(price_exchange(c, s).dense, all_reduced);
  s.accumulative = false;
  EXPECT_DOUBLE_EQ(price_exchange(c, s).dense, c.all_reduce.seconds(kVertices * 4));
}

TEST(ExchangeCost, TheDescriptionNamesTheSetUpAndBothEnds) {
  ExchangeCalibration c = nvlink();
  c.setup_seconds = 0.912;
  const std::string text = describe(c);
  EXPECT_EQ(text.rfind("NCCL set up in 0.912 s", 0), 0u) << text;
  EXPECT_NE(text.find("all-reduce 20 us at 4.00 KiB ... 1.36 ms at 256.0 MiB"), std::string::npos)
      << text;
  EXPECT_NE(text.find("; reduce-scatter "), std::string::npos) << text;
  EXPECT_NE(text.find("; all-gather "), std::string::npos) << text;
}

}  // namespace
}  // namespace ooc
