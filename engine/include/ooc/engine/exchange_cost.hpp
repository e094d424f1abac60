#pragma once
// Which form a GPU rank's exchange takes under Exchange::automatic (docs/distributed.md,
// section 2), priced in seconds from what the ranks measured when they joined over NCCL
// (calibrate_exchange, src/cuda/exchange_calibration.cu). Both forms first count this rank's
// changes, read the count back and all-reduce the busiest rank's count on the host, and both end
// by marking the owned vertices that join the next frontier; neither is priced. What differs:
//   dense   the all-reduce of V values; an accumulative program first takes its change of every
//           delta (a kernel over V), and sums the changes by a reduce-scatter of the ranks'
//           layout's slots where that moves fewer bytes (OwnedLayout::scatters)
//   sparse  a second pass over V that writes this rank's changed pairs (not priced), the
//           all-gather of N c pairs of 8 bytes (c: the busiest rank's changes), then the kernel
//           that applies them
// Choosing by bytes alone took the sparse form over NVLink where the dense one was faster (two
// GPUs, the lead's runs, not yet in performance-log.md: BFS 152 against 140 ms, CC 236 against
// 192): an all-gather of N c pairs and their atomics cost more than the all-reduce of as many
// bytes. Plain C++, unit-tested without a GPU (tests/unit/exchange_cost_test.cpp).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ooc {

// One measurement: the fastest of a few repetitions at one size.
struct TimedSize {
  std::uint64_t bytes = 0;
  double seconds = 0;
};

inline constexpr std::size_t kExchangeSizes = 5;
// The smallest size measured (or the dense size, when smaller): a collective's latency.
inline constexpr std::uint64_t kSmallestExchangeBytes = 4096;

// Times at ascending sizes. Between two sizes the time is the line through them; below the first,
// the first's (the latency); above the last, the last rising segment carried on (a bandwidth).
struct SizeTimes {
  std::array<TimedSize, kExchangeSizes> at{};
  double seconds(std::uint64_t bytes) const;
};

// What the ranks measured when they joined; the same on every rank (each figure is the slowest
// rank's), so that every rank makes the same choice.
struct ExchangeCalibration {
  SizeTimes all_reduce;       // bytes: the array each rank hands in (4 V at the largest size)
  SizeTimes reduce_scatter;   // bytes: the same (an accumulative program's dense form)
  SizeTimes all_gather;       // bytes: every rank's pairs together, as each rank receives them
  SizeTimes apply_pairs;      // bytes: the same gathered pairs, applied by the kernel
  double change_seconds = 0;  // an accumulative program's change of its V deltas (a kernel)
  // This rank's: joining over NCCL, warming its connections up and these measurements, at load.
  double setup_seconds = 0;

  bool measured() const { return all_reduce.at.back().bytes > 0; }
};

// One exchange, as the ranks agreed on it before choosing.
struct ExchangeShape {
  std::uint64_t vertices = 0;
  std::uint64_t ranks = 1;
  std::uint64_t busiest = 0;  // the most vertices any rank changed since the last exchange
  std::uint32_t value_bytes = 4;
  bool accumulative = false;
  // An accumulative program's dense form as a reduce-scatter: its slots (OwnedLayout::slots);
  // 0: an all-reduce of the V values.
  std::uint64_t scattered = 0;
};

// Seconds of what only that form runs.
struct ExchangePrice {
  double dense = 0, sparse = 0;
};

ExchangePrice price_exchange(const ExchangeCalibration& calibration, const ExchangeShape& shape);

// Exchange::automatic: the sparse form when its price is lower; without a calibration, when it
// moves fewer bytes (8 N c < 2 value_bytes V, the all-reduce's bytes per rank against the
// all-gather's).
bool prefer_sparse(const ExchangeCalibration& calibration, const ExchangeShape& shape);

// Exchange::automatic's room for pairs on each rank: the most changes c for which it still takes
// the sparse form (prefer_sparse with shape.busiest = c, which is ignored here), at most
// ceil(V / N). The sparse form's price grows with c and the dense form's does not, so below that c
// auto exchanges sparse and above it dense: room for more pairs would only take device memory from
// the edge cache. Without a calibration, ceil(V / N).
std::uint64_t automatic_pair_capacity(const ExchangeCalibration& calibration, ExchangeShape shape);

// The sizes a calibration measures: kExchangeSizes from kSmallestExchangeBytes (or `largest`,
// when smaller) up to `largest`, evenly spaced on a log scale, each a whole number of `unit`s.
std::array<std::uint64_t, kExchangeSizes> exchange_sizes(std::uint64_t largest, std::uint64_t unit);

// "NCCL set up in 0.912 s (...): all-reduce 25 us at 4.00 KiB ... 1.31 ms at 256.0 MiB; ...".
std::string describe(const ExchangeCalibration& calibration);

}  // namespace ooc
