// The exchange's kernels (engine/cuda_include/ooc/engine/cuda/exchange.cuh) against a host
// reference, on one GPU: the changes a rank counts and collects as pairs, and what the gathered
// pairs of several ranks, or the reduction of every rank's values, leave in the values and the
// next frontier. The ranks' engine runs (distributed_gpu_test) need a GPU per rank; these
// kernels do not, so the other ranks' pairs are checked here on any GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gpu_test.hpp"
#include "ooc/engine/cuda/exchange.cuh"
#include "ooc/engine/ownership.hpp"
#include "ooc/transfer/device_array.hpp"

namespace ooc {
namespace {

namespace ex = detail::cuda_exchange;

constexpr unsigned kThreads = 256;

template <class T>
DeviceArray<T> to_device(const std::vector<T>& host) {
  DeviceArray<T> d(std::max<std::size_t>(host.size(), 1), "a test array");
  if (!host.empty()) {
    EXPECT_EQ(cudaMemcpy(d.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  return d;
}

template <class T>
std::vector<T> to_host(const DeviceArray<T>& d, std::size_t n) {
  std::vector<T> host(n);
  if (n > 0) {
    EXPECT_EQ(cudaMemcpy(host.data(), d.data(), n * sizeof(T), cudaMemcpyDeviceToHost),
              cudaSuccess);
  }
  return host;
}

bool bit(const std::vector<std::uint64_t>& bits, std::uint64_t v) {
  return (bits[v >> 6] >> (v & 63u) & 1u) != 0;
}

// n vertices (not a multiple of 64) with values and agreed values: the first 64 all changed, a
// fiftieth of the rest at random.
struct Rank {
  static constexpr vid_t n = 100'037;
  std::vector<std::uint32_t> now, agreed;

  explicit Rank(std::uint32_t seed) : now(n), agreed(n) {
    std::mt19937 rng(seed);
    for (vid_t v = 0; v < n; ++v) {
      agreed[v] = rng() % 1000 + 10;
      const bool changed = v < 64 || rng() % 50 == 0;
      now[v] = changed ? agreed[v] - 1 - rng() % 9 : agreed[v];
    }
  }
  std::vector<vid_t> changes() const {
    std::vector<vid_t> out;
    for (vid_t v = 0; v < n; ++v) {
      if (now[v] != agreed[v]) out.push_back(v);
    }
    return out;
  }
};

struct Found {
  unsigned long long counted = 0, collected = 0;
  std::vector<std::uint64_t> pairs;
};

// Counts, then collects into `capacity` slots, as exchange_values() does.
Found find_changes(const Rank& rank, bool difference, std::uint64_t capacity) {
  const DeviceArray<std::uint32_t> now = to_device(rank.now), agreed = to_device(rank.agreed);
  constexpr unsigned blocks = 64;  // fewer than the vertices need: each block takes several rounds
  DeviceArray<unsigned long long> count(1, "the count");
  DeviceArray<std::uint64_t> pairs(std::max<std::uint64_t>(capacity, 1), "the pairs");
  Found found;
  EXPECT_EQ(cudaMemset(count.data(), 0, sizeof(unsigned long long)), cudaSuccess);
  ex::count_changes_kernel<std::uint32_t, kThreads>
      <<<blocks, kThreads>>>(now.data(), agreed.data(), count.data(), Rank::n);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  found.counted = to_host(count, 1)[0];
  EXPECT_EQ(cudaMemset(count.data(), 0, sizeof(unsigned long long)), cudaSuccess);
  if (difference) {
    ex::collect_changes_kernel<std::uint32_t, true, kThreads><<<blocks, kThreads>>>(
        now.data(), agreed.data(), pairs.data(), capacity, count.data(), Rank::n);
  } else {
    ex::collect_changes_kernel<std::uint32_t, false, kThreads><<<blocks, kThreads>>>(
        now.data(), agreed.data(), pairs.data(), capacity, count.data(), Rank::n);
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  found.collected = to_host(count, 1)[0];
  found.pairs = to_host(pairs, std::min<std::uint64_t>(found.collected, capacity));
  return found;
}

std::uint64_t pair_of(vid_t v, std::uint32_t x) {
  return (std::uint64_t{x} << 32) | v;
}

// Every change counted and collected: the new value (monotone) or the delta's difference.
void expect_every_change(const Rank& rank, bool difference) {
  const std::vector<vid_t> expected = rank.changes();
  ASSERT_GT(expected.size(), 1000u);
  const Found found = find_changes(rank, difference, Rank::n);
  EXPECT_EQ(found.counted, expected.size());
  EXPECT_EQ(found.collected, expected.size());
  std::vector<std::uint64_t> want;
  for (const vid_t v : expected)
    want.push_back(pair_of(v, difference ? rank.now[v] - rank.agreed[v] : rank.now[v]));
  std::vector<std::uint64_t> got = found.pairs;
  std::sort(got.begin(), got.end(), [](std::uint64_t a, std::uint64_t b) {
    return static_cast<vid_t>(a) < static_cast<vid_t>(b);
  });
  EXPECT_EQ(got, want);
}

TEST(CudaExchangeKernels, MonotoneChangesAreTheChangedValues) {
  OOC_REQUIRE_GPU();
  expect_every_change(Rank(1), false);
}

TEST(CudaExchangeKernels, AccumulativeChangesAreEveryChangedDeltaAsItsDifference) {
  OOC_REQUIRE_GPU();
  expect_every_change(Rank(2), true);
}

TEST(CudaExchangeKernels, CollectingCountsEveryChangeAndWritesOnlyTheCapacity) {
  OOC_REQUIRE_GPU();
  const Rank rank(3);
  const std::vector<vid_t> expected = rank.changes();
  const std::uint64_t capacity = expected.size() / 3;
  const Found found = find_changes(rank, false, capacity);
  EXPECT_EQ(found.collected, expected.size());
  ASSERT_EQ(found.pairs.size(), capacity);
  for (const std::uint64_t p : found.pairs) {
    const auto v = static_cast<vid_t>(p);
    ASSERT_LT(v, Rank::n);
    EXPECT_TRUE(std::binary_search(expected.begin(), expected.end(), v)) << "vertex " << v;
    EXPECT_EQ(p, pair_of(v, rank.now[v]));
  }
}

// Three ranks' pairs, padded, as gathered; this rank (1) owns the odd vertices. Applying the
// others' pairs (min) marks the owned vertices whose value they lowered, and no other: the rank's
// own changes keep the marks its kernels left (13 changed, processed again, its mark taken).
TEST(CudaExchangeKernels, OtherRanksPairsMarkTheOwnedVerticesTheyLowered) {
  OOC_REQUIRE_GPU();
  constexpr vid_t n = 1000;
  constexpr std::uint64_t c = 6;  // the busiest rank's count
  std::vector<std::uint32_t> values(n);
  for (vid_t v = 0; v < n; ++v)
    values[v] = 500 + v;
  std::vector<std::uint64_t> owned((n + 63) / 64), next((n + 63) / 64);
  for (vid_t v = 1; v < n; v += 2)
    owned[v >> 6] |= std::uint64_t{1} << (v & 63u);
  // This rank's own changes: 11 (owned, marked), 13 (owned, its mark taken), 20 (not owned,
  // marked), 31 (owned, marked, and lowered further by rank 2), 40 (not owned, and rank 0 offers a
  // larger value).
  for (const vid_t v : {11u, 13u, 20u, 31u, 40u})
    values[v] -= 100;
  next[0] |= (std::uint64_t{1} << 11) | (std::uint64_t{1} << 20) | (std::uint64_t{1} << 31) |
             (std::uint64_t{1} << 40);
  const std::uint64_t pad = ex::kNoPair;
  const std::vector<std::uint64_t> gathered = {
      // rank 0: 40 at a larger value than this rank's, 501 and 700 (owned, not owned), padding
      pair_of(40, 480), pair_of(501, 3), pair_of(700, 4), pad, pad, pad,
      // rank 1 (this one): its own five, padded
      pair_of(11, values[11]), pair_of(13, values[13]), pair_of(20, values[20]),
      pair_of(31, values[31]), pair_of(40, values[40]), pad,
      // rank 2: 31 lower still, 501 again at a larger value, 999 (owned) and 998 (not owned)
      // at larger values: min keeps them
      pair_of(31, 1), pair_of(501, 9), pair_of(999, 2000), pair_of(998, 2000), pad, pad};
  ASSERT_EQ(gathered.size(), 3 * c);
  const DeviceArray<std::uint32_t> d_values = to_device(values);
  const DeviceArray<std::uint64_t> d_pairs = to_device(gathered), d_owned = to_device(owned),
                                   d_next = to_device(next);
  ex::apply_pairs_kernel<std::uint32_t, Reduction::min>
      <<<1, 32>>>(d_values.data(), d_pairs.data(), 3 * c, c, 2 * c, d_next.data(), d_owned.data());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::uint32_t> want = values;
  want[31] = 1;
  want[501] = 3;
  want[700] = 4;
  EXPECT_EQ(to_host(d_values, n), want);
  std::vector<std::uint64_t> want_next = next;
  want_next[31 >> 6] |= std::uint64_t{1} << 31;  // marked already
  want_next[501 >> 6] |= std::uint64_t{1} << (501 & 63u);
  EXPECT_EQ(to_host(d_next, next.size()), want_next);
}

// The dense form: the reduction of every rank's values arrives beside this rank's own; an owned
// vertex another rank lowered takes the lower value and is marked, and only those.
TEST(CudaExchangeKernels, TheReductionMarksTheOwnedVerticesOtherRanksLowered) {
  OOC_REQUIRE_GPU();
  constexpr vid_t n = 777;
  std::vector<std::uint32_t> values(n), reduced(n);
  std::vector<std::uint64_t> owned((n + 63) / 64), next((n + 63) / 64);
  std::mt19937 rng(4);
  for (vid_t v = 0; v < n; ++v) {
    values[v] = 1000 + rng() % 1000;
    reduced[v] = rng() % 4 == 0 ? values[v] - 1 - rng() % 500 : values[v];
    if (rng() % 2 == 0) owned[v >> 6] |= std::uint64_t{1} << (v & 63u);
    if (rng() % 8 == 0) next[v >> 6] |= std::uint64_t{1} << (v & 63u);  // the rank's own marks
  }
  const DeviceArray<std::uint32_t> d_values = to_device(values), d_reduced = to_device(reduced);
  const DeviceArray<std::uint64_t> d_owned = to_device(owned), d_next = to_device(next);
  ex::take_reduced_kernel<<<2, 64>>>(d_values.data(), d_reduced.data(), d_next.data(),
                                     d_owned.data(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(to_host(d_values, n), reduced);
  const std::vector<std::uint64_t> got = to_host(d_next, next.size());
  for (vid_t v = 0; v < n; ++v) {
    const bool lowered = reduced[v] != values[v];
    EXPECT_EQ(bit(got, v), bit(next, v) || (lowered && bit(owned, v))) << "vertex " << v;
  }
}

// An accumulative program whose delta activates a vertex at 0.5.
struct HalfThreshold {
  using Value = float;
  OOC_HD bool relax(float message, std::uint32_t, float* dst) const {
    const float before = atomic_add(dst, message);
    return before < 0.5f && before + message >= 0.5f;
  }
};

// The dense form of an accumulative program as a reduce-scatter: three ranks' changes into their
// slots of the ranks' layout, summed on the host as NCCL would, then rank 1's block onto its own
// vertices. Its deltas are the agreed ones plus every rank's change, an owned vertex is marked
// where the sum reaches the threshold (pieces that start inside a bitmap word included), and the
// vertices of other ranks are back at their agreed deltas.
TEST(CudaExchangeKernels, AReduceScatterSumsEveryRanksChangesOntoTheOwnedDeltas) {
  OOC_REQUIRE_GPU();
  constexpr std::uint32_t ranks = 3, me = 1;
  // Partitions of uneven sizes (one longer than a piece), dealt round the ranks.
  std::vector<Partition> parts;
  vid_t first = 0;
  for (const vid_t count : {5u, 70u, 33u, kLayoutPieceVertices + 90, 1u, 129u, 64u, 7u}) {
    parts.push_back({first, first + count, 0, 0});
    first += count;
  }
  const vid_t n = first;
  std::vector<std::uint32_t> owner(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p)
    owner[p] = static_cast<std::uint32_t>((p + 1) % ranks);  // rank 1: the long one among them
  const OwnedLayout layout = owned_layout(parts, owner, ranks);
  std::vector<std::uint64_t> owned((n + 63) / 64);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    for (vid_t v = parts[p].first_vertex; v < parts[p].last_vertex && owner[p] == me; ++v)
      owned[v >> 6] |= std::uint64_t{1} << (v & 63u);
  }
  std::mt19937 rng(5);
  const auto quarter = [&] { return static_cast<float>(rng() % 4) * 0.125f; };  // exact sums
  std::vector<float> agreed(n);
  std::vector<std::vector<float>> deltas(ranks, std::vector<float>(n));
  for (vid_t v = 0; v < n; ++v) {
    agreed[v] = quarter();
    for (std::uint32_t r = 0; r < ranks; ++r)
      deltas[r][v] = rng() % 3 == 0 ? agreed[v] + quarter() : agreed[v];
  }
  const DeviceArray<OwnedLayout::Piece> pieces = to_device(layout.pieces);
  const DeviceArray<float> d_agreed = to_device(agreed);
  std::vector<float> summed(layout.slots(ranks), 0.0f);
  std::vector<float> mine_after;  // rank 1's deltas after its scatter pass
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const DeviceArray<float> d_deltas = to_device(deltas[r]);
    const DeviceArray<float> d_slots = to_device(std::vector<float>(layout.slots(ranks), 0.0f));
    ex::scatter_change_kernel<<<4, 64>>>(d_deltas.data(), d_agreed.data(), d_slots.data(),
                                         pieces.data(), layout.pieces.size(), r);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<float> slots = to_host(d_slots, summed.size());
    for (std::size_t i = 0; i < slots.size(); ++i)
      summed[i] += slots[i];
    if (r == me) mine_after = to_host(d_deltas, n);
  }
  std::vector<std::uint64_t> next((n + 63) / 64, 0);
  const DeviceArray<float> d_mine = to_device(mine_after), d_summed = to_device(summed);
  const DeviceArray<float> d_agreed_mine = to_device(agreed);
  const DeviceArray<std::uint64_t> d_next = to_device(next);
  ex::take_scattered_kernel<HalfThreshold, 64>
      <<<3, 64>>>(HalfThreshold{}, d_mine.data(), d_agreed_mine.data(), d_summed.data(),
                  pieces.data(), layout.pieces.size(), me, d_next.data());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<float> got = to_host(d_mine, n), got_agreed = to_host(d_agreed_mine, n);
  const std::vector<std::uint64_t> got_next = to_host(d_next, next.size());
  std::size_t marked = 0;
  for (vid_t v = 0; v < n; ++v) {
    if (!bit(owned, v)) {
      EXPECT_EQ(got[v], agreed[v]) << "vertex " << v;
      EXPECT_FALSE(bit(got_next, v)) << "vertex " << v;
      continue;
    }
    float want = agreed[v];
    for (std::uint32_t r = 0; r < ranks; ++r)
      want += deltas[r][v] - agreed[v];
    EXPECT_EQ(got[v], want) << "vertex " << v;
    EXPECT_EQ(got_agreed[v], want) << "vertex " << v;
    EXPECT_EQ(bit(got_next, v), want >= 0.5f) << "vertex " << v;
    marked += want >= 0.5f ? 1 : 0;
  }
  EXPECT_GT(marked, 1000u);
}

}  // namespace
}  // namespace ooc
