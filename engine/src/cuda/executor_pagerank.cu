// The CUDA executor instantiated for PageRank (one file per program so that they compile in
// parallel).
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {

std::unique_ptr<ValuesExecutor<PageRank::Value>> make_cuda_executor(const PageRank& program,
                                                                    const CudaRun& run) {
  return std::make_unique<CudaExecutor<PageRank>>(program, run);
}

}  // namespace ooc::detail
