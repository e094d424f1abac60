#pragma once
// The parts of a distributed run's exchange (docs/distributed.md, section 2) that do not depend
// on the program: the sparse form's pair buffers, the busiest rank's count, the choice between
// the sparse and the dense form, and the collectives timed alone. CudaExecutor<P> runs the
// kernels (exchange.cuh), which depend on the program's values. For the CUDA sources only.
// calibrate_exchange (exchange_calibration.cu) times both forms once, when the ranks join.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "ooc/engine/communicator.hpp"
#include "ooc/engine/cuda/nccl_link.hpp"
#include "ooc/engine/detail/executor.hpp"
#include "ooc/engine/exchange_cost.hpp"
#include "ooc/engine/options.hpp"
#include "ooc/kernels/message.hpp"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

class RankExchange {
 public:
  // Room for `capacity` of this rank's pairs and as many of every rank's
  // (MemoryPlan::pair_capacity: every vertex when forced sparse, auto's crossover, 0 for dense).
  void reserve(std::uint64_t capacity, std::uint64_t ranks);
  std::uint64_t capacity() const { return pair_capacity_; }
  std::uint64_t* own_pairs() { return own_pairs_.data(); }
  std::uint64_t* all_pairs() { return all_pairs_.data(); }
  unsigned long long* count() { return pair_count_.data(); }
  // This rank's count of changed vertices, once the kernels queued on `stream` have counted them.
  unsigned long long read_count(const Stream& stream, const char* doing);
  // The most changes any rank has. Every rank has finished its tasks before any enters NCCL,
  // which would wait forever for a rank that failed: a failed rank breaks this host-side step
  // instead (its abort()). The time it takes, the wait for the slowest rank, goes to
  // stats.wait_seconds.
  static std::uint64_t busiest(Communicator& host, unsigned long long mine, IterationStats& stats);
  // Whether the ranks exchange pairs: they fit, and the form is forced or its price in the
  // ranks' calibration is lower (prefer_sparse).
  bool sparse(Exchange form, const ExchangeCalibration& calibration,
              const ExchangeShape& shape) const {
    return pair_capacity_ > 0 && shape.busiest <= pair_capacity_ &&
           (form == Exchange::sparse || prefer_sparse(calibration, shape));
  }
  // Every rank's c pairs into all_pairs(), this rank's `mine` padded with kNoPair.
  void gather(NcclLink& nccl, unsigned long long mine, std::uint64_t c, const Stream& stream,
              IterationStats& stats, const char* doing);
  // A sharing program's slots over n vertices (SharedSlots), after its values: one all-reduce of
  // the sums, to which every rank but the first gives only its marked slots' (the first's others
  // are the agreed sums, or 0 where another rank marked them), then the marks ORed (every rank's
  // gathered, then folded).
  void share_slots(NcclLink& nccl, const SharedSlots& slots, vid_t n, const Stream& stream,
                   IterationStats& stats, const char* doing);
  // The collective alone, timed into stats (the kernels queued before it on the stream finish
  // first).
  template <class Collective>
  static void in_nccl(const Stream& stream, IterationStats& stats, const char* doing,
                      Collective&& collective) {
    stream.synchronize(doing);
    const auto start = std::chrono::steady_clock::now();
    collective();
    stats.nccl_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

 private:
  // This rank's changed pairs, every rank's as gathered, and their count.
  std::uint64_t pair_capacity_ = 0;
  DeviceArray<std::uint64_t> own_pairs_, all_pairs_;
  DeviceArray<unsigned long long> pair_count_;
  DeviceArray<std::uint32_t> gathered_marks_;  // share_slots(): every rank's marks
};

// Collective: warms `nccl` up with the collectives a run over `vertices` makes and measures them
// (exchange_cost.hpp), every figure the slowest rank's. Its buffers are freed on return.
ExchangeCalibration calibrate_exchange(NcclLink& nccl, Communicator& host, std::uint64_t vertices);

}  // namespace ooc::detail
