#pragma once
// Every CUDA runtime call of pcie-bench goes through PCIE_CHECK: a failure throws
// ooc::CudaError naming the call, CUDA's own message and the place, and main prints it.
#include <cuda_runtime_api.h>

#include <string>

#include "ooc/core/error.hpp"

namespace pcie_bench {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  throw ooc::CudaError(std::string(call) + " failed: " + cudaGetErrorString(status) + " (" + file +
                       ":" + std::to_string(line) + ")");
}

}  // namespace pcie_bench

#define PCIE_CHECK(call) ::pcie_bench::check_cuda((call), #call, __FILE__, __LINE__)
