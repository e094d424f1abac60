// The CUDA executor instantiated for the searches of strongly connected components
// (scc_program.hpp; scc.cpp runs them).
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {

std::unique_ptr<ValuesExecutor<SccReach::Value>> make_cuda_executor(const SccReach& program,
                                                                    const CudaRun& run) {
  return std::make_unique<CudaExecutor<SccReach>>(program, run);
}

}  // namespace ooc::detail
