// NCCL warmed up and the exchange calibrated when a rank joins the others (exchange_cost.hpp).
// NCCL connects lazily, at the first collective of each kind and size: under mpirun the first
// timed run paid 0.91 s in NCCL. Here every rank makes the collectives a run makes (the dense
// all-reduce of V 4-byte values with min and with sum, the reduce-scatter of an accumulative
// program's changes, the sparse all-gather of pairs), at sizes
// from 4 KiB to the dense array's, and times them, and the kernels that only one form runs, so
// that Exchange::automatic prices both forms in seconds.
#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <vector>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/exchange.cuh"
#include "ooc/engine/cuda/rank_exchange.hpp"
#include "ooc/kernels/cuda/launch.cuh"

namespace ooc::detail {
namespace {

constexpr int kRepeats = 3;  // each figure is the fastest of these, after one untimed call
constexpr unsigned kThreads = 256;
constexpr const char* kDoing = "warming NCCL up and timing the exchange";

// Rank-made pairs of vertices spread over the graph (Knuth's multiplicative hash), so that the
// apply kernel's atomics land as scattered as a real exchange's.
__global__ void fill_pairs_kernel(std::uint64_t* pairs, std::uint64_t count, std::uint64_t first,
                                  std::uint64_t vertices) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const std::uint64_t k = first + i;
    pairs[i] = ((k & 0xffffffffu) << 32) | ((k * 2654435761u) % vertices);
  }
}

// The host's time of a collective (which returns once it is done), as the exchange times it.
template <class Collective>
double collective_seconds(Collective&& collective) {
  collective();
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < kRepeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    collective();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// The GPU's time of a kernel on `stream`.
template <class Launch>
double kernel_seconds(const Stream& stream, Launch&& launch) {
  const Event start(true), stop(true);
  launch();
  float best = std::numeric_limits<float>::infinity();
  for (int r = 0; r < kRepeats; ++r) {
    start.record(stream.get(), kDoing);
    launch();
    stop.record(stream.get(), kDoing);
    stop.synchronize(kDoing);
    float ms = 0;
    OOC_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()), kDoing);
    best = std::min(best, ms);
  }
  return static_cast<double>(best) * 1e-3;
}

// Every figure becomes the slowest rank's, so that every rank prices alike and chooses alike.
void agree(Communicator& host, ExchangeCalibration& c) {
  std::vector<double> seconds;
  for (const SizeTimes* t : {&c.all_reduce, &c.reduce_scatter, &c.all_gather, &c.apply_pairs}) {
    for (const TimedSize& at : t->at)
      seconds.push_back(at.seconds);
  }
  seconds.push_back(c.change_seconds);
  host.all_reduce(seconds, Reduction::max);
  auto next = seconds.begin();
  for (SizeTimes* t : {&c.all_reduce, &c.reduce_scatter, &c.all_gather, &c.apply_pairs}) {
    for (TimedSize& at : t->at)
      at.seconds = *next++;
  }
  c.change_seconds = *next;
}

}  // namespace

ExchangeCalibration calibrate_exchange(NcclLink& nccl, Communicator& host, std::uint64_t vertices) {
  const std::uint64_t n = std::max<std::uint64_t>(vertices, 1);
  const auto ranks = static_cast<std::uint64_t>(nccl.size());
  const auto reduced = exchange_sizes(n * sizeof(std::uint32_t), sizeof(std::uint32_t));
  const auto gathered = exchange_sizes(n * sizeof(std::uint32_t), sizeof(std::uint64_t) * ranks);
  const std::uint64_t most_pairs = gathered.back() / sizeof(std::uint64_t) / ranks;  // per rank
  int device = 0, sms = 0;
  OOC_CUDA(cudaGetDevice(&device), kDoing);
  OOC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), kDoing);
  const auto grid = [&](std::uint64_t items) {
    return static_cast<unsigned>(
        std::clamp<std::uint64_t>((items + kThreads - 1) / kThreads, 1, std::uint64_t(sms) * 8));
  };
  // The values (all-reduced, and the pairs' and the changes' target), this rank's pairs, and every
  // rank's (read as V deltas by the change kernel).
  DeviceArray<std::uint32_t> values(std::max(n, ranks), "timing the exchange");  // a slot a rank
  DeviceArray<std::uint64_t> own(most_pairs, "timing the exchange");
  DeviceArray<std::uint64_t> all(std::max(most_pairs * ranks, (n + 1) / 2), "timing the exchange");
  const Stream stream;
  const cudaStream_t s = stream.get();
  OOC_CUDA(cudaMemsetAsync(values.data(), 0, values.bytes(), s), kDoing);
  OOC_CUDA(cudaMemsetAsync(all.data(), 0, all.bytes(), s), kDoing);
  OOC_LAUNCH(fill_pairs_kernel, grid(most_pairs), kThreads, s, kDoing, own.data(), most_pairs,
             static_cast<std::uint64_t>(nccl.rank()) * most_pairs, n);
  stream.synchronize(kDoing);
  // Every rank holds its buffers before any enters NCCL, which would wait forever for a rank that
  // could not: that rank fails here, on the host link, instead.
  std::array<std::uint64_t, 1> ready{};
  host.all_reduce(ready, Reduction::sum);
  ExchangeCalibration c;
  auto* const as_float = reinterpret_cast<float*>(values.data());
  for (std::size_t i = 0; i < kExchangeSizes; ++i) {
    const std::uint64_t count = reduced[i] / sizeof(std::uint32_t);
    const double as_min = collective_seconds(
        [&] { nccl.all_reduce(values.data(), count, Reduction::min, s); });  // monotone programs
    const double as_sum = collective_seconds(
        [&] { nccl.all_reduce(as_float, count, Reduction::sum, s); });  // accumulative ones
    c.all_reduce.at[i] = {reduced[i], std::max(as_min, as_sum)};
    const std::uint64_t block = std::max<std::uint64_t>(count / ranks, 1);  // as the values fit
    c.reduce_scatter.at[i] = {block * ranks * sizeof(float),
                              collective_seconds([&] { nccl.reduce_scatter(as_float, block, s); })};
    const std::uint64_t pairs = gathered[i] / sizeof(std::uint64_t) / ranks;
    c.all_gather.at[i] = {gathered[i], collective_seconds([&] {
                            nccl.all_gather(own.data(), all.data(), pairs, s);
                          })};
    const std::uint64_t mine = static_cast<std::uint64_t>(nccl.rank()) * pairs;
    c.apply_pairs.at[i] = {gathered[i], kernel_seconds(stream, [&] {
                             OOC_LAUNCH(
                                 (cuda_exchange::apply_pairs_kernel<std::uint32_t, Reduction::min>),
                                 grid(pairs * ranks), kThreads, s, kDoing, values.data(),
                                 all.data(), pairs * ranks, mine, mine + pairs, nullptr,
                                 nullptr);  // unmarked: a run marks only where a pair moves
                           })};
  }
  c.change_seconds = kernel_seconds(stream, [&] {
    OOC_LAUNCH(cuda_exchange::delta_change_kernel, grid(n), kThreads, s, kDoing,
               reinterpret_cast<const float*>(all.data()), as_float, as_float,
               static_cast<vid_t>(n));
  });
  agree(host, c);
  return c;
}

}  // namespace ooc::detail
