// Triangle counting's kernel launch (triangles_gpu.cpp drives it; kernels/cuda/triangles.cuh),
// and the release of what earlier runs held, whose memory the counting's blocks take.
#include <algorithm>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/device_graph.hpp"
#include "ooc/kernels/cuda/triangles.cuh"

namespace ooc::detail {
namespace {

// CUDA's limit on a grid's blocks in x; a warp takes one chunk of 32 edges, and far more blocks
// than the GPU holds at once let its scheduler even out chunks of unequal work.
constexpr std::uint64_t kMostBlocks = (std::uint64_t{1} << 31) - 1;

cuda::OrientedBlock on_device(const TriangleBlock& b) {
  return {b.first, b.last, b.offsets, b.targets, b.edges};
}

}  // namespace

void count_triangles(const DeviceGraph& device, const TriangleBlock& sources,
                     const TriangleBlock& targets, unsigned long long* counts,
                     unsigned long long* total) {
  if (sources.edges == 0 || targets.first == targets.last) return;
  const char* doing = "counting triangles";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  const std::uint64_t chunks = (sources.edges + cuda::kWarp - 1) / cuda::kWarp;
  const auto blocks = static_cast<unsigned>(
      std::min((chunks + cuda::kTriangleWarps - 1) / cuda::kTriangleWarps, kMostBlocks));
  cuda::count_triangles<<<blocks, cuda::kTriangleWarps * cuda::kWarp>>>(
      on_device(sources), on_device(targets), counts, total);
  OOC_CUDA(cudaGetLastError(), doing);
  OOC_CUDA(cudaDeviceSynchronize(), doing);
}

void release_held(DeviceGraph& device) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  device.work.reset();
  device.resident_targets = {};
  device.resident_weights = {};
  device.block_cuts = {};
  device.list_blocks = 1;
  device.cache = EdgeCache{};
  if (device.in_lists) release_held(*device.in_lists);
}

}  // namespace ooc::detail
