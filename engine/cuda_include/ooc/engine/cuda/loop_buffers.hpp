#pragma once
// What the frontier loop (frontier_loop.cuh) keeps on the GPU for a run: its queues, its far
// pile, its counters and the record of its levels, and where the edge cache holds each
// partition. Compiled once (frontier_loop.cu); CudaExecutor<P> launches the kernel between
// start() and finish().
#include <cuda_runtime.h>

#include <cstdint>
#include <span>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/engine/frontier_loop.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/kernels/cuda/frontier_loop.cuh"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

class LoopBuffers {
 public:
  // Whether `device` can run the loop: a cooperative launch, with one block of `threads` of
  // `kernel` resident per SM at least. The grid the loop then runs: `blocks_per_sm` blocks per SM
  // where they fit (kLoopBlocksPerSm, frontier_loop.cuh: few, since a barrier's cost grows with
  // the blocks, yet enough that a level's lists all start at once).
  bool supported(int device, const void* kernel, int threads, unsigned blocks_per_sm);
  unsigned blocks() const { return blocks_; }
  // The state of one stretch of `loop` over the frontier bitmap `near_bits` of n vertices: the
  // buffers (made, or grown, for loop.edges), their counters zeroed on `stream`.
  cuda::LoopState start(const FrontierLoop& loop, std::uint64_t* near_bits, vid_t n,
                        cudaStream_t stream, const char* doing);
  // After the kernel on `stream`: the levels it ran as IterationStats, appended to `levels`.
  void finish(cudaStream_t stream, std::vector<IterationStats>& levels, const char* doing);
  // Where the edge cache holds each of `parts` (none without a cache; `compressed`: its lists too).
  cuda::CachedPartitions partitions(const DeviceGraph& device, const Graph& g,
                                    std::span<const Partition> parts, bool compressed,
                                    const char* doing);

 private:
  int checked_device_ = -1;
  unsigned blocks_ = 0;
  DeviceArray<vid_t> near_, far_;
  DeviceArray<cuda::LoopHeavy> heavy_;
  DeviceArray<std::uint64_t> odd_bits_, far_bits_;  // the odd levels' bitmap, the far pile's
  DeviceArray<cuda::LoopSlot> slots_;
  DeviceArray<unsigned long long> counters_;  // far counts (2), least, ran (2)
  DeviceArray<cuda::LoopLevel> levels_;
  Buffer<unsigned long long> host_ran_;
  Buffer<cuda::LoopLevel> host_levels_;
  DeviceArray<eid_t> shift_, list_shift_;
  bool shifts_made_ = false;
};

}  // namespace ooc::detail
