// LoopBuffers (loop_buffers.hpp): the frontier loop's buffers and the read-back of its levels,
// compiled once for every program.
#include <algorithm>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/loop_buffers.hpp"
#include "ooc/transfer/pinned_memory.hpp"

namespace ooc::detail {
namespace {

static_assert(sizeof(cuda::LoopLevel) <= kLoopLevelBytes, "frontier_loop_bytes counts the records");
static_assert(sizeof(cuda::LoopHeavy) <= kLoopHeavyItemBytes,
              "frontier_loop_bytes counts the heavy items");
static_assert(cuda::kLoopHeavyEdges == kLoopHeavyEdges, "the kernel defers the lists counted for");
static_assert(cuda::kLoopMaxHops == kMaxFrontierLoopHops, "the kernel takes every hop allowed");
static_assert(kMaxLoopEdges + kLoopQueueSlack < (1ull << cuda::kLoopCountBits),
              "a queue's count fits its counter's low bits");

// counters_: the two far counts, the least far value, the levels run and the end time.
constexpr std::size_t kFarCounts = 0, kLeast = 2, kRan = 3, kCounters = 5;

}  // namespace

bool LoopBuffers::supported(int device, const void* kernel, int threads, unsigned blocks_per_sm) {
  if (checked_device_ == device) return blocks_ > 0;
  checked_device_ = device;
  const char* doing = "checking the frontier loop's launch";
  int cooperative = 0, sms = 0, per_sm = 0;
  OOC_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device), doing);
  OOC_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), doing);
  OOC_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0), doing);
  blocks_ =
      cooperative != 0 && per_sm > 0
          ? static_cast<unsigned>(sms) * std::min(static_cast<unsigned>(per_sm), blocks_per_sm)
          : 0;
  return blocks_ > 0;
}

cuda::LoopState LoopBuffers::start(const FrontierLoop& loop, std::uint64_t* near_bits, vid_t n,
                                   cudaStream_t stream, const char* doing) {
  const std::uint64_t near_capacity = loop_queue_capacity(loop.edges, n);
  const std::uint64_t far_capacity = loop.delta > 0 ? near_capacity * kLoopFarLevels : 0;
  if (near_.size() < 3 * near_capacity) {
    near_ = DeviceArray<vid_t>(3 * near_capacity, "the frontier loop's queues");
  }
  if (far_.size() < 2 * far_capacity) {
    far_ = DeviceArray<vid_t>(2 * far_capacity, "the frontier loop's far pile");
  }
  const std::uint64_t heavy_capacity = loop_heavy_capacity(loop.edges);
  if (heavy_.size() < 3 * heavy_capacity) {
    heavy_ = DeviceArray<cuda::LoopHeavy>(3 * heavy_capacity, "the frontier loop's heavy lists");
  }
  const std::uint64_t words = (std::uint64_t{n} + 63) / 64;
  if (odd_bits_.size() < words) {
    odd_bits_ = DeviceArray<std::uint64_t>(words, "the frontier loop's bitmap");
    OOC_CUDA(cudaMemsetAsync(odd_bits_.data(), 0, odd_bits_.bytes(), stream), doing);
  }
  if (loop.delta > 0 && far_bits_.size() < words) {
    far_bits_ = DeviceArray<std::uint64_t>(words, "the frontier loop's far pile");
    OOC_CUDA(cudaMemsetAsync(far_bits_.data(), 0, far_bits_.bytes(), stream), doing);
  }
  if (slots_.size() == 0) {
    slots_ = DeviceArray<cuda::LoopSlot>(3, "the frontier loop's counters");
    counters_ = DeviceArray<unsigned long long>(kCounters, "the frontier loop's counters");
    host_ran_ = Buffer<unsigned long long>::allocate(2, pinned_memory(checked_device_));
  }
  if (levels_.size() < std::size_t{loop.iterations} + 1) {
    levels_ = DeviceArray<cuda::LoopLevel>(loop.iterations + 1, "the frontier loop's levels");
    host_levels_ =
        Buffer<cuda::LoopLevel>::allocate(loop.iterations + 1, pinned_memory(checked_device_));
  }
  OOC_CUDA(cudaMemsetAsync(slots_.data(), 0, slots_.bytes(), stream), doing);
  OOC_CUDA(cudaMemsetAsync(counters_.data(), 0, counters_.bytes(), stream), doing);
  OOC_CUDA(cudaMemsetAsync(counters_.data() + kLeast, 0xff, sizeof(unsigned long long), stream),
           doing);
  return {{near_bits, odd_bits_.data()},
          far_bits_.data(),
          near_.data(),
          far_.data(),
          near_capacity,
          far_capacity,
          slots_.data(),
          heavy_.data(),
          heavy_capacity,
          counters_.data() + kFarCounts,
          counters_.data() + kLeast,
          levels_.data(),
          counters_.data() + kRan,
          n,
          std::min(loop.edges, kMaxLoopEdges),  // a level marks at most this many: the count fits
          loop.iterations,
          loop.hops,
          loop.delta};
}

void LoopBuffers::finish(cudaStream_t stream, std::vector<IterationStats>& levels,
                         const char* doing) {
  OOC_CUDA(cudaMemcpyAsync(host_ran_.data(), counters_.data() + kRan,
                           2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream),
           doing);
  OOC_CUDA(cudaStreamSynchronize(stream), doing);
  const std::uint64_t ran = host_ran_[0];
  if (ran == 0) return;
  OOC_CUDA(cudaMemcpyAsync(host_levels_.data(), levels_.data(), ran * sizeof(cuda::LoopLevel),
                           cudaMemcpyDeviceToHost, stream),
           doing);
  OOC_CUDA(cudaStreamSynchronize(stream), doing);
  for (std::uint64_t l = 0; l < ran; ++l) {
    const cuda::LoopLevel& level = host_levels_[l];
    const unsigned long long end = l + 1 < ran ? host_levels_[l + 1].start_ns : host_ran_[1];
    IterationStats it;
    it.frontier_loop = true;
    it.active_vertices = it.frontier_vertices = level.slot.vertices();
    it.active_edges = it.frontier_edges = level.slot.edges();
    it.edges_processed = level.slot.processed();
    it.bytes[static_cast<std::size_t>(TransferEngine::zerocopy)] = level.slot.zerocopy;
    it.cached_bytes = level.slot.cached;
    it.seconds = it.compute_seconds = static_cast<double>(end - level.start_ns) * 1e-9;
    levels.push_back(it);
  }
}

cuda::CachedPartitions LoopBuffers::partitions(const DeviceGraph& device, const Graph& g,
                                               std::span<const Partition> parts, bool compressed,
                                               const char* doing) {
  const EdgeCache& cache = device.cache;
  const auto count = static_cast<std::uint32_t>(parts.size());
  if (cache.partitions.empty()) return {device.partition_first.data(), count, nullptr, nullptr};
  if (!shifts_made_) {
    std::vector<eid_t> shift(parts.size(), cuda::CachedPartitions::kAbsent);
    std::vector<eid_t> list_shift(parts.size(), 0);
    for (const std::uint32_t p : cache.partitions) {
      shift[p] = parts[p].first_edge - cache.position[p];
      if (compressed)
        list_shift[p] = g.compressed.offsets[parts[p].first_vertex] - cache.list_position[p];
    }
    shift_ = DeviceArray<eid_t>(parts.size(), "the frontier loop's cache positions");
    list_shift_ = DeviceArray<eid_t>(parts.size(), "the frontier loop's cache positions");
    OOC_CUDA(cudaMemcpy(shift_.data(), shift.data(), shift_.bytes(), cudaMemcpyHostToDevice),
             doing);
    OOC_CUDA(cudaMemcpy(list_shift_.data(), list_shift.data(), list_shift_.bytes(),
                        cudaMemcpyHostToDevice),
             doing);
    shifts_made_ = true;
  }
  return {device.partition_first.data(), count, shift_.data(), list_shift_.data()};
}

}  // namespace ooc::detail
