// The CUDA executor instantiated for SsspF32 (one file per program so that they compile in
// parallel).
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {

std::unique_ptr<ValuesExecutor<SsspF32::Value>> make_cuda_executor(const SsspF32& program,
                                                                   const CudaRun& run) {
  return std::make_unique<CudaExecutor<SsspF32>>(program, run);
}

}  // namespace ooc::detail
