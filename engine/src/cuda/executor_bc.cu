// The CUDA executor instantiated for betweenness centrality's two programs, and the device
// memory their own arrays live in.
#include <cstddef>
#include <memory>

#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {

std::unique_ptr<ValuesExecutor<BcForward::Value>> make_cuda_executor(const BcForward& program,
                                                                     const CudaRun& run) {
  return std::make_unique<CudaExecutor<BcForward>>(program, run);
}

std::unique_ptr<ValuesExecutor<BcBackward::Value>> make_cuda_executor(const BcBackward& program,
                                                                      const CudaRun& run) {
  return std::make_unique<CudaExecutor<BcBackward>>(program, run);
}

std::shared_ptr<void> device_allocate(const DeviceGraph& device, std::size_t bytes,
                                      const char* what) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  auto array = std::make_shared<DeviceArray<std::byte>>(bytes, what);
  return {array, array->data()};
}

void copy_to_device(const DeviceGraph& device, void* to, const void* from, std::size_t bytes) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  OOC_CUDA(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), "copying bc's arrays to the GPU");
}

void copy_to_host(const DeviceGraph& device, void* to, const void* from, std::size_t bytes) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  OOC_CUDA(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), "copying bc's arrays back");
}

}  // namespace ooc::detail
