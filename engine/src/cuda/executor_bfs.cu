// The CUDA executor instantiated for Bfs (one file per program so that they compile in parallel).
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {

std::unique_ptr<ValuesExecutor<Bfs::Value>> make_cuda_executor(const Bfs& program,
                                                               const CudaRun& run) {
  return std::make_unique<CudaExecutor<Bfs>>(program, run);
}

}  // namespace ooc::detail
