// The CUDA executor instantiated for the batched traversals' two programs (batch_programs.hpp),
// the device memory their own arrays live in, and a batch's kernels outside its runs (batch.cpp
// calls them).
#include <cstddef>
#include <memory>
#include <vector>

#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/cuda_executor.cuh"
#include "ooc/transfer/device_array.hpp"

namespace ooc::detail {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kWarp = 32;

__global__ void place_sources(BatchState state, const vid_t* sources, std::uint32_t count) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) state.place_source(i, sources[i]);
}

// A warp per vertex, a lane per source: the row's entries are read coalesced.
__global__ void add_dependencies(BatchState state, vid_t n, double* total) {
  const std::uint64_t warp = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / kWarp;
  for (std::uint64_t v = warp; v < n; v += warps) {
    double sum = 0;
    for (std::uint32_t i = lane; i < state.width; i += kWarp)
      sum += state.dependency(static_cast<vid_t>(v), i);
    for (unsigned offset = kWarp / 2; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) total[v] += sum;
  }
}

void finish(const char* doing) {
  OOC_CUDA(cudaGetLastError(), doing);
  OOC_CUDA(cudaDeviceSynchronize(), doing);
}

}  // namespace

std::unique_ptr<ValuesExecutor<BatchForward::Value>> make_cuda_executor(const BatchForward& program,
                                                                        const CudaRun& run) {
  return std::make_unique<CudaExecutor<BatchForward>>(program, run);
}

std::unique_ptr<ValuesExecutor<BatchBackward::Value>> make_cuda_executor(
    const BatchBackward& program, const CudaRun& run) {
  return std::make_unique<CudaExecutor<BatchBackward>>(program, run);
}

std::shared_ptr<void> device_allocate(const DeviceGraph& device, std::size_t bytes,
                                      const char* what) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  auto array = std::make_shared<DeviceArray<std::byte>>(bytes, what);
  return {array, array->data()};
}

void device_fill(const DeviceGraph& device, void* to, int byte, std::size_t bytes) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  OOC_CUDA(cudaMemset(to, byte, bytes), "filling a program's arrays");
}

void copy_to_device(const DeviceGraph& device, void* to, const void* from, std::size_t bytes) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  OOC_CUDA(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), "copying a program's arrays in");
}

void copy_to_host(const DeviceGraph& device, void* to, const void* from, std::size_t bytes) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  OOC_CUDA(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), "copying a program's arrays back");
}

std::uint64_t device_free_bytes(const DeviceGraph& device) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  std::size_t free_bytes = 0, total = 0;
  OOC_CUDA(cudaMemGetInfo(&free_bytes, &total), "reading the GPU's free memory");
  return free_bytes;
}

void batch_reset(const DeviceGraph& device, const BatchState& state, vid_t n,
                 std::span<const vid_t> sources) {
  const char* doing = "placing the batch's sources";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  const std::size_t row = std::size_t{n} * state.words * sizeof(std::uint32_t);
  const std::size_t per_source = std::size_t{n} * state.width * sizeof(std::uint32_t);
  OOC_CUDA(cudaMemset(state.seen, 0, row), doing);
  OOC_CUDA(cudaMemset(state.frontier, 0, row), doing);
  OOC_CUDA(cudaMemset(state.next, 0, row), doing);
  if (state.level != nullptr) OOC_CUDA(cudaMemset(state.level, 0xff, per_source), doing);
  if (state.sigma != nullptr) OOC_CUDA(cudaMemset(state.sigma, 0, per_source), doing);
  if (state.t != nullptr) OOC_CUDA(cudaMemset(state.t, 0, per_source), doing);
  if (sources.empty()) return;
  DeviceArray<vid_t> on_device(sources.size(), "the batch's sources");
  OOC_CUDA(
      cudaMemcpy(on_device.data(), sources.data(), sources.size_bytes(), cudaMemcpyHostToDevice),
      doing);
  const auto count = static_cast<std::uint32_t>(sources.size());
  place_sources<<<(count + kThreads - 1) / kThreads, kThreads>>>(state, on_device.data(), count);
  finish(doing);
}

void batch_add_dependencies(const DeviceGraph& device, const BatchState& state, vid_t n,
                            double* total) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return;
  const auto blocks = static_cast<unsigned>(
      std::min<std::uint64_t>((std::uint64_t{n} * kWarp + kThreads - 1) / kThreads, 1u << 20));
  add_dependencies<<<blocks, kThreads>>>(state, n, total);
  finish("adding up bc's dependencies");
}

}  // namespace ooc::detail
