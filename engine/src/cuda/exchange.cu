#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/exchange.cuh"
#include "ooc/kernels/cuda/launch.cuh"

namespace ooc::detail {
namespace {

__global__ void merge_owned_kernel(std::uint64_t* current, std::uint64_t* next,
                                   const std::uint64_t* owned, std::uint64_t words) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words;
       w += stride) {
    current[w] |= next[w] & owned[w];
    next[w] = 0;
  }
}

__global__ void mask_owned_kernel(std::uint64_t* bits, const std::uint64_t* owned,
                                  std::uint64_t words) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t w = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < words;
       w += stride)
    bits[w] &= owned[w];
}

constexpr unsigned kThreads = 256;

}  // namespace

void launch_merge_owned(std::uint64_t* current, std::uint64_t* next, const std::uint64_t* owned,
                        std::uint64_t words, unsigned blocks, cudaStream_t stream) {
  OOC_LAUNCH(merge_owned_kernel, blocks, kThreads, stream, "merging the rank's frontier", current,
             next, owned, words);
}

void launch_mask_owned(std::uint64_t* bits, const std::uint64_t* owned, std::uint64_t words,
                       unsigned blocks, cudaStream_t stream) {
  OOC_LAUNCH(mask_owned_kernel, blocks, kThreads, stream, "keeping the rank's vertices", bits,
             owned, words);
}

}  // namespace ooc::detail
