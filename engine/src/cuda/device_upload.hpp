#pragma once
// Host arrays copied into new device arrays: device_graph.cu's and edge_cache_fill.cu's.
#include <cuda_runtime.h>

#include <cstddef>

#include "ooc/core/cuda_check.hpp"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

template <class T>
void upload(DeviceArray<T>& dst, const T* src, std::size_t n, const char* what) {
  dst = DeviceArray<T>(n, what);
  if (n > 0) OOC_CUDA(cudaMemcpy(dst.data(), src, n * sizeof(T), cudaMemcpyHostToDevice), what);
}

}  // namespace ooc::detail
