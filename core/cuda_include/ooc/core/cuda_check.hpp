#pragma once
// Every CUDA call and launch is checked; a failure becomes an ooc::Error naming the call, what
// the engine was doing, and CUDA's explanation. Internal to CUDA sources: public headers never
// include this (or any CUDA header).
#include <cuda_runtime_api.h>

#include <string>

#include "ooc/core/error.hpp"

namespace ooc {

[[noreturn]] inline void throw_cuda(cudaError_t err, const char* call, const char* doing) {
  // Reported here, once: the runtime keeps a failed call's error for cudaGetLastError, which would
  // otherwise blame the next launch (check_launch) for it, in a later run of the same process.
  cudaGetLastError();
  const std::string message =
      std::string(doing) + ": " + call + " failed: " + cudaGetErrorString(err);
  if (err == cudaErrorMemoryAllocation) throw OutOfMemory(message);
  throw CudaError(message);
}

inline void cuda_check(cudaError_t err, const char* call, const char* doing) {
  if (err != cudaSuccess) throw_cuda(err, call, doing);
}

// After a kernel launch: launch errors now, execution errors at the next synchronisation.
inline void check_launch(const char* kernel, const char* doing) {
  cuda_check(cudaGetLastError(), kernel, doing);
}

}  // namespace ooc

#define OOC_CUDA(call, doing) ::ooc::cuda_check((call), #call, (doing))
