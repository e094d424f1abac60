// RankExchange (rank_exchange.hpp): the program-independent half of a rank's exchange.
#include <array>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/rank_exchange.hpp"

namespace ooc::detail {

void RankExchange::reserve(Exchange form, std::uint64_t n, std::uint64_t ranks) {
  if (form == Exchange::dense) return;
  pair_capacity_ = form == Exchange::sparse ? n : (n + ranks - 1) / ranks;
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

std::uint64_t RankExchange::busiest(Communicator& host, unsigned long long mine) {
  std::array<std::uint64_t, 1> most{mine};
  host.all_reduce(most, Reduction::max);
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

}  // namespace ooc::detail
