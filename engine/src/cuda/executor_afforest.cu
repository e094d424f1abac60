// The CUDA executor instantiated for AfforestLink, cc's last pass (one file per program so that
// they compile in parallel), and Afforest's kernels outside the run (afforest.cpp calls them).
#include "ooc/core/cuda_check.hpp"
#include "ooc/engine/cuda/cuda_executor.cuh"

namespace ooc::detail {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(vid_t n) {
  return static_cast<unsigned>((std::uint64_t{n} + kThreads - 1) / kThreads);
}

__global__ void make_roots(vid_t* parent, vid_t n) {
  const vid_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) parent[v] = v;
}

__global__ void link_heads(vid_t* parent, const vid_t* heads, vid_t n) {
  const vid_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const vid_t u = heads[v];
  if (u != kNoVertex) union_link(parent, v, u);
}

__global__ void compress(vid_t* parent, vid_t n) {
  const vid_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) union_compress(parent, v);
}

__global__ void gather(const vid_t* parent, const vid_t* at, vid_t* out, std::uint32_t count) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = parent[at[i]];
}

void finish(const char* doing) {
  OOC_CUDA(cudaGetLastError(), doing);
  OOC_CUDA(cudaDeviceSynchronize(), doing);
}

}  // namespace

std::unique_ptr<ValuesExecutor<AfforestLink::Value>> make_cuda_executor(const AfforestLink& program,
                                                                        const CudaRun& run) {
  return std::make_unique<CudaExecutor<AfforestLink>>(program, run);
}

void afforest_sample(const DeviceGraph& device, vid_t* parent, const vid_t* heads, vid_t n,
                     std::uint32_t rounds) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return;
  make_roots<<<blocks_for(n), kThreads>>>(parent, n);
  for (std::uint32_t r = 0; r < rounds; ++r) {
    link_heads<<<blocks_for(n), kThreads>>>(parent, heads + std::uint64_t{r} * n, n);
    compress<<<blocks_for(n), kThreads>>>(parent, n);
  }
  finish("linking cc's sampled neighbours");
}

void afforest_compress(const DeviceGraph& device, vid_t* parent, vid_t n) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return;
  compress<<<blocks_for(n), kThreads>>>(parent, n);
  finish("pointing cc's vertices at their roots");
}

void afforest_gather(const DeviceGraph& device, const vid_t* parent, std::span<const vid_t> at,
                     vid_t* out) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  const auto count = static_cast<std::uint32_t>(at.size());
  if (count == 0) return;
  DeviceArray<vid_t> where(count, "cc's sampled vertices");
  DeviceArray<vid_t> found(count, "cc's sampled roots");
  OOC_CUDA(cudaMemcpy(where.data(), at.data(), count * sizeof(vid_t), cudaMemcpyHostToDevice),
           "copying cc's samples to the GPU");
  gather<<<blocks_for(count), kThreads>>>(parent, where.data(), found.data(), count);
  finish("reading cc's sampled roots");
  OOC_CUDA(cudaMemcpy(out, found.data(), count * sizeof(vid_t), cudaMemcpyDeviceToHost),
           "copying cc's sampled roots back");
}

}  // namespace ooc::detail
