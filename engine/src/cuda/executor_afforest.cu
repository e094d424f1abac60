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

__global__ void link_labels(vid_t* parent, const vid_t* labels, vid_t n) {
  const vid_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && labels[v] != v) union_link(parent, v, labels[v]);
}

__global__ void count_moved(const vid_t* parent, const vid_t* labels, vid_t n,
                            unsigned long long* moved) {
  const vid_t v = blockIdx.x * blockDim.x + threadIdx.x;
  const bool differs = v < n && parent[v] != labels[v];
  const unsigned votes = __ballot_sync(0xffffffffu, differs);
  if ((threadIdx.x & 31u) == 0 && votes != 0) atomicAdd(moved, __popc(votes));
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

std::uint64_t afforest_labels(const DeviceGraph& device, const vid_t* parent, vid_t* labels,
                              vid_t n) {
  const char* doing = "merging the ranks' cc forests";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return 0;
  OOC_CUDA(cudaMemcpy(labels, parent, std::uint64_t{n} * sizeof(vid_t), cudaMemcpyDeviceToDevice),
           doing);
  device.nccl->all_reduce(labels, n, Reduction::min, nullptr);
  DeviceArray<unsigned long long> moved(1, "cc's moved roots");
  OOC_CUDA(cudaMemset(moved.data(), 0, sizeof(unsigned long long)), doing);
  count_moved<<<blocks_for(n), kThreads>>>(parent, labels, n, moved.data());
  finish(doing);
  unsigned long long count = 0;
  OOC_CUDA(cudaMemcpy(&count, moved.data(), sizeof count, cudaMemcpyDeviceToHost), doing);
  return count;
}

void afforest_link_labels(const DeviceGraph& device, vid_t* parent, const vid_t* labels, vid_t n) {
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return;
  link_labels<<<blocks_for(n), kThreads>>>(parent, labels, n);
  compress<<<blocks_for(n), kThreads>>>(parent, n);
  finish("linking cc's forest to the ranks' roots");
}

}  // namespace ooc::detail
