// The CUDA executor instantiated for Cc (one file per program so that they compile in parallel).
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {

std::unique_ptr<ValuesExecutor<Cc::Value>> make_cuda_executor(const Cc& program,
                                                              const CudaRun& run) {
  return std::make_unique<CudaExecutor<Cc>>(program, run);
}

}  // namespace ooc::detail
