// The CUDA executor instantiated for SsspU32 (one file per program so that they compile in
// parallel).
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {

std::unique_ptr<ValuesExecutor<SsspU32::Value>> make_cuda_executor(const SsspU32& program,
                                                                   const CudaRun& run) {
  return std::make_unique<CudaExecutor<SsspU32>>(program, run);
}

}  // namespace ooc::detail
