// RankExchange (rank_exchange.hpp): the program-independent half of a rank's exchange.
#include <algorithm>
#include <array>
#include <chrono>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/rank_exchange.hpp"
#include "ooc/kernels/cuda/launch.cuh"

namespace ooc::detail {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::uint64_t items) {
  return static_cast<unsigned>(std::min<std::uint64_t>((items + kThreads - 1) / kThreads, 65536));
}

// Every sum but the marked slots' goes to 0.
__global__ void keep_marked_kernel(float* sums, const std::uint32_t* marks, std::uint32_t slots,
                                   std::uint64_t count) {
  const std::uint64_t words = (slots + 31) / 32;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t at = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; at < count;
       at += stride) {
    const std::uint64_t v = at / slots, i = at % slots;
    if ((marks[v * words + i / 32] >> (i % 32) & 1u) == 0) sums[at] = 0;
  }
}

// marks = the OR of every rank's, gathered at r * count.
__global__ void fold_marks_kernel(std::uint32_t* marks, const std::uint32_t* gathered,
                                  std::uint64_t count, int ranks) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < count;
       w += stride) {
    std::uint32_t bits = 0;
    for (int r = 0; r < ranks; ++r)
      bits |= gathered[static_cast<std::uint64_t>(r) * count + w];
    marks[w] = bits;
  }
}

}  // namespace

void RankExchange::reserve(std::uint64_t capacity, std::uint64_t ranks) {
  if (capacity == 0) return;
  pair_capacity_ = capacity;
  own_pairs_ = DeviceArray<std::uint64_t>(pair_capacity_, "the rank's changed vertices");
  all_pairs_ = DeviceArray<std::uint64_t>(pair_capacity_ * ranks, "every rank's changes");
  pair_count_ = DeviceArray<unsigned long long>(1, "the count of changed vertices");
}

unsigned long long RankExchange::read_count(const Stream& stream, const char* doing) {
  unsigned long long mine = 0;
  OOC_CUDA(
      cudaMemcpyAsync(&mine, pair_count_.data(), sizeof mine, cudaMemcpyDeviceToHost, stream.get()),
      doing);
  stream.synchronize(doing);
  return mine;
}

std::uint64_t RankExchange::busiest(Communicator& host, unsigned long long mine,
                                    IterationStats& stats) {
  const auto start = std::chrono::steady_clock::now();
  std::array<std::uint64_t, 1> most{mine};
  host.all_reduce(most, Reduction::max);
  stats.wait_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return most[0];
}

void RankExchange::gather(NcclLink& nccl, unsigned long long mine, std::uint64_t c,
                          const Stream& stream, IterationStats& stats, const char* doing) {
  if (mine < c) {
    OOC_CUDA(cudaMemsetAsync(own_pairs_.data() + mine, 0xff, (c - mine) * sizeof(std::uint64_t),
                             stream.get()),
             doing);
  }
  in_nccl(stream, stats, doing,
          [&] { nccl.all_gather(own_pairs_.data(), all_pairs_.data(), c, stream.get()); });
}

void RankExchange::share_slots(NcclLink& nccl, const SharedSlots& slots, vid_t n,
                               const Stream& stream, IterationStats& stats, const char* doing) {
  const std::uint64_t marks = std::uint64_t{n} * ((slots.slots + 31) / 32);
  if (slots.sums != nullptr) {
    const std::uint64_t count = std::uint64_t{n} * slots.slots;
    if (nccl.rank() != 0 && count > 0) {
      OOC_LAUNCH(keep_marked_kernel, blocks_for(count), kThreads, stream.get(), doing, slots.sums,
                 slots.marks, slots.slots, count);
    }
    in_nccl(stream, stats, doing,
            [&] { nccl.all_reduce(slots.sums, count, Reduction::sum, stream.get()); });
    stats.exchange_bytes += count * sizeof(float);
  }
  const auto ranks = static_cast<std::uint64_t>(nccl.size());
  if (gathered_marks_.size() < marks * ranks)
    gathered_marks_ = DeviceArray<std::uint32_t>(marks * ranks, "every rank's slot marks");
  in_nccl(stream, stats, doing,
          [&] { nccl.all_gather(slots.marks, gathered_marks_.data(), marks, stream.get()); });
  if (marks > 0) {
    OOC_LAUNCH(fold_marks_kernel, blocks_for(marks), kThreads, stream.get(), doing, slots.marks,
               gathered_marks_.data(), marks, nccl.size());
  }
  stats.exchange_bytes += marks * sizeof(std::uint32_t);
}

}  // namespace ooc::detail
