#pragma once
// Part of CudaExecutor<P> (cuda_executor.cuh, which includes this at its end): a rank's exchange
// with the others and the gathering of the values at the end, the kernels that read the program's
// values (exchange.cuh). The pair buffers, the busiest rank's count, the choice of form and the
// timed collectives are RankExchange's (rank_exchange.hpp), compiled once.
#include <algorithm>
#include <cstdint>

#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/engine/cuda/exchange.cuh"
#include "ooc/engine/cuda/rank_exchange.hpp"
#include "ooc/kernels/cuda/launch.cuh"

namespace ooc::detail {

// The ranks agree on the vertex arrays, in one of two forms (docs/distributed.md, section 2):
//   dense   monotone programs all-reduce the values with the program's direction (min unless it
//           says); accumulative ones the sum of every rank's change of the deltas
//   sparse  every rank all-gathers the (vertex, value) pairs it changed, padded to the busiest
//           rank's count, and applies the others' (min, max or sum)
// Exchange::automatic takes the sparse form when it costs less time, priced from what the ranks
// measured when they joined (prefer_sparse, exchange_cost.hpp) for the busiest rank's c changes.
// An accumulative program's dense form is a reduce-scatter where the ranks' layout allows
// (scatter_changes): a rank reads only its own vertices' deltas. Then an owned vertex whose value
// another rank moved, or whose delta now reaches the threshold, joins the next frontier. A monotone
// program's own changes keep the marks its kernels left: a loaded filter task processed once more
// has taken the marks of the vertices it processed.
template <class P>
void CudaExecutor<P>::exchange(Communicator& host, IterationStats& stats) {
  exchange_values(host, stats);
  if constexpr (SharingProgram<P>) {
    exchange_.share_slots(*device_.nccl, program_.shared(), g_.num_vertices(), ws_.streams[kDirect],
                          stats, "combining the ranks' slots");
  }
}

template <class P>
void CudaExecutor<P>::exchange_values(Communicator& host, IterationStats& stats) {
  const char* doing = "exchanging with the other ranks";
  const cudaStream_t s = stream(kDirect);
  const Stream& direct = ws_.streams[kDirect];
  const vid_t n = g_.num_vertices();
  NcclLink& nccl = *device_.nccl;
  const auto ranks = static_cast<std::uint64_t>(nccl.size());
  Value* const now = kAccumulative ? deltas_.data() : values_.data();  // what the pairs carry
  unsigned long long mine = 0;
  // Forced sparse collects the pairs at once (the pass counts them too); auto counts first, and
  // collects only once the sparse form is chosen, as most of its exchanges end up dense.
  const bool collect_first = options_.exchange == Exchange::sparse;
  const auto collect = [&] {
    OOC_CUDA(cudaMemsetAsync(exchange_.count(), 0, sizeof mine, s), doing);
    OOC_LAUNCH((cuda_exchange::collect_changes_kernel<Value, kAccumulative, kBlockThreads>),
               grid_for(n), kBlockThreads, s, doing, now, agreed_.data(), exchange_.own_pairs(),
               exchange_.capacity(), exchange_.count(), n);
  };
  if (exchange_.capacity() > 0 && n > 0) {
    if (collect_first) {
      collect();
    } else {
      OOC_CUDA(cudaMemsetAsync(exchange_.count(), 0, sizeof mine, s), doing);
      OOC_LAUNCH((cuda_exchange::count_changes_kernel<Value, kBlockThreads>), grid_for(n),
                 kBlockThreads, s, doing, now, agreed_.data(), exchange_.count(), n);
    }
    mine = exchange_.read_count(direct, doing);
  }
  const std::uint64_t c = RankExchange::busiest(host, mine, stats);
  if (n == 0) return;
  stats.busiest_changes = std::max(stats.busiest_changes, c);
  const ExchangeShape shape{
      n, ranks, c, sizeof(Value), kAccumulative, scatters() ? change_.size() : 0};
  const bool sparse = exchange_.sparse(options_.exchange, device_.exchange, shape);
  if (sparse) {
    stats.sparse_exchange = true;
    if (c == 0) return;                         // no rank changed anything
    if (mine > 0 && !collect_first) collect();  // the count comes out the same
    exchange_.gather(nccl, mine, c, direct, stats, doing);
    const std::uint64_t own = static_cast<std::uint64_t>(nccl.rank()) * c;
    constexpr Reduction op = kAccumulative ? Reduction::sum : reduction_of<P>();
    OOC_LAUNCH((cuda_exchange::apply_pairs_kernel<Value, op>), grid_for(ranks * c), kBlockThreads,
               s, doing, now, exchange_.all_pairs(), ranks * c, own, own + c,
               kAccumulative ? nullptr : next_.data(), device_.owned.data());
    stats.exchange_bytes += ranks * c * sizeof(std::uint64_t);
    if constexpr (!kAccumulative) {  // marked as applied: the values are agreed as they stand
      OOC_CUDA(cudaMemcpyAsync(agreed_.data(), values_.data(), agreed_.bytes(),
                               cudaMemcpyDeviceToDevice, s),
               doing);
    }
  } else if constexpr (kAccumulative) {
    if (scatters()) {
      scatter_changes(stats, doing);
      direct.synchronize(doing);
      return;
    }
    OOC_LAUNCH(cuda_exchange::delta_change_kernel, grid_for(n), kBlockThreads, s, doing,
               deltas_.data(), agreed_.data(), change_.data(), n);
    RankExchange::in_nccl(direct, stats, doing,
                          [&] { nccl.all_reduce(change_.data(), n, Reduction::sum, s); });
    stats.exchange_bytes += std::uint64_t{n} * sizeof(Value);
  } else {
    // Into the agreed copy, which the count above has read: the values keep this rank's own.
    RankExchange::in_nccl(direct, stats, doing, [&] {
      nccl.all_reduce(values_.data(), agreed_.data(), n, reduction_of<P>(), s);
    });
    stats.exchange_bytes += std::uint64_t{n} * sizeof(Value);
    OOC_LAUNCH(cuda_exchange::take_reduced_kernel, grid_for(n), kBlockThreads, s, doing,
               values_.data(), agreed_.data(), next_.data(), device_.owned.data(), n);
  }
  if constexpr (kAccumulative) mark_changed(sparse, doing);
  direct.synchronize(doing);
}

// An accumulative program's dense form where the ranks' layout allows (OwnedLayout::scatters):
// the changes into the layout's slots, a reduce-scatter of them (half an all-reduce's bytes), and
// the sums onto the rank's own vertices, which alone it reads.
template <class P>
void CudaExecutor<P>::scatter_changes(IterationStats& stats, const char* doing) {
  const cudaStream_t s = stream(kDirect);
  const std::uint64_t pieces = device_.layout_pieces.size();
  const auto rank = static_cast<std::uint32_t>(device_.nccl->rank());
  const unsigned grid = grid_for(pieces * kBlockThreads);  // a block a piece
  OOC_LAUNCH(cuda_exchange::scatter_change_kernel, grid, kBlockThreads, s, doing, deltas_.data(),
             agreed_.data(), change_.data(), device_.layout_pieces.data(), pieces, rank);
  RankExchange::in_nccl(ws_.streams[kDirect], stats, doing, [&] {
    device_.nccl->reduce_scatter(change_.data(), device_.layout_block, s);
  });
  stats.exchange_bytes += change_.bytes();
  OOC_LAUNCH((cuda_exchange::take_scattered_kernel<P, kBlockThreads>), grid, kBlockThreads, s,
             doing, program_, deltas_.data(), agreed_.data(), change_.data(),
             device_.layout_pieces.data(), pieces, rank, next_.data());
}

template <class P>
void CudaExecutor<P>::mark_changed(bool sparse, const char* doing) {
  const vid_t n = g_.num_vertices();
  OOC_LAUNCH((cuda_exchange::apply_change_kernel<P, kBlockThreads>), grid_for(n), kBlockThreads,
             stream(kDirect), doing, program_, deltas_.data(), agreed_.data(),
             sparse ? nullptr : change_.data(), next_.data(), device_.owned.data(), n);
}

// Accumulative programs keep each vertex's value and pending delta on its owner alone: gather
// them everywhere.
template <class P>
void CudaExecutor<P>::finish(Communicator&) {
  if constexpr (kAccumulative) {
    const vid_t n = g_.num_vertices();
    if (!ranked_ || n == 0) return;
    const cudaStream_t s = stream(kDirect);
    const char* doing = "gathering the ranks' values";
    for (Value* owned_only : {values_.data(), deltas_.data()}) {
      OOC_LAUNCH(cuda_exchange::keep_owned_kernel, grid_for(n), kBlockThreads, s, doing, owned_only,
                 device_.owned.data(), n);
      device_.nccl->all_reduce(owned_only, n, Reduction::sum, s);
    }
  }
}

}  // namespace ooc::detail
