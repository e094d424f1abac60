// The non-templated frontier kernel: the merge of next into current.
#include "ooc/kernels/cuda/survey.cuh"

namespace ooc::cuda {

__global__ void merge_frontier_kernel(std::uint64_t* current, std::uint64_t* next,
                                      std::uint64_t words) {
  for (std::uint64_t w = grid_thread(); w < words; w += grid_threads()) {
    current[w] |= next[w];
    next[w] = 0;
  }
}

}  // namespace ooc::cuda
