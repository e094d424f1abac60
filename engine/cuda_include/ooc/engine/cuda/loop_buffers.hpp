#pragma once
// What the frontier loop (frontier_loop.cuh) keeps on the GPU for a run: its queues, its far
// pile, its counters and the record of its levels. Compiled once (frontier_loop.cu);
// CudaExecutor<P> launches the kernel between start() and finish().
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "ooc/core/buffer.hpp"
#include "ooc/engine/frontier_loop.hpp"
#include "ooc/engine/stats.hpp"
#include "ooc/kernels/cuda/frontier_loop.cuh"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

// Blocks per SM the loop runs with: all are resident (a cooperative launch), and a barrier's
// cost grows with the blocks, while a level of a small frontier has a few thousand vertices, a
// warp each. docs/cost-model.md, "The frontier loop".
inline constexpr int kLoopBlocksPerSm = 2;

class LoopBuffers {
 public:
  // Whether `device` can run the loop: a cooperative launch, with one block of `threads` of
  // `kernel` per SM at least. The grid the loop then runs.
  bool supported(int device, const void* kernel, int threads);
  unsigned blocks() const { return blocks_; }
  // The state of one stretch of `loop` over the frontier bitmap `near_bits` of n vertices: the
  // buffers (made, or grown, for loop.edges), their counters zeroed on `stream`.
  cuda::LoopState start(const FrontierLoop& loop, std::uint64_t* near_bits, vid_t n,
                        cudaStream_t stream, const char* doing);
  // After the kernel on `stream`: the levels it ran as IterationStats, appended to `levels`
  // (`request_bytes`: a zero-copy line).
  void finish(cudaStream_t stream, std::uint32_t request_bytes, std::vector<IterationStats>& levels,
              const char* doing);

 private:
  int checked_device_ = -1;
  unsigned blocks_ = 0;
  DeviceArray<vid_t> near_, far_;
  DeviceArray<std::uint64_t> far_bits_;
  DeviceArray<cuda::LoopSlot> slots_;
  DeviceArray<unsigned long long> counters_;  // far counts (2), least, ran (2)
  DeviceArray<cuda::LoopLevel> levels_;
  Buffer<unsigned long long> host_ran_;
  Buffer<cuda::LoopLevel> host_levels_;
};

}  // namespace ooc::detail
