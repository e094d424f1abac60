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

// Links each vertex of [first, last) to its neighbour in `heads` (indexed by vertex; pinned host
// memory read in place). A warp's threads start on a 32-vertex boundary, so that each warp reads
// whole 128-byte lines.
__global__ void link_heads(vid_t* parent, const vid_t* heads, vid_t first, vid_t last) {
  const vid_t v = (first & ~vid_t{31}) + blockIdx.x * blockDim.x + threadIdx.x;
  if (v < first || v >= last) return;
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

// Links each vertex of [first, first + count) to the parent each other rank gave it (`gathered`:
// rank r's parents of the chunk at r * count).
__global__ void link_gathered(vid_t* parent, const vid_t* gathered, vid_t first, vid_t count,
                              int ranks, int self) {
  const vid_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  for (int r = 0; r < ranks; ++r) {
    const vid_t to = gathered[std::uint64_t(r) * count + i];
    if (r != self && to != first + i) union_link(parent, first + i, to);
  }
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
                     std::uint32_t rounds, std::span<const std::pair<vid_t, vid_t>> ranges) {
  const char* doing = "linking cc's sampled neighbours";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return;
  void* mapped = nullptr;
  OOC_CUDA(cudaHostGetDevicePointer(&mapped, const_cast<vid_t*>(heads), 0), doing);
  const auto* const on_host = static_cast<const vid_t*>(mapped);
  make_roots<<<blocks_for(n), kThreads>>>(parent, n);
  for (std::uint32_t r = 0; r < rounds; ++r) {
    for (const auto& [first, last] : ranges) {
      if (first == last) continue;
      link_heads<<<blocks_for(last - (first & ~vid_t{31})), kThreads>>>(
          parent, on_host + std::uint64_t{r} * n, first, last);
    }
    compress<<<blocks_for(n), kThreads>>>(parent, n);
  }
  finish(doing);
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

void afforest_merge(const DeviceGraph& device, vid_t* parent, vid_t n, vid_t chunk,
                    vid_t* gathered) {
  const char* doing = "merging the ranks' cc forests";
  OOC_CUDA(cudaSetDevice(device.device), "selecting the GPU");
  if (n == 0) return;
  NcclLink& link = *device.nccl;
  for (vid_t first = 0, count = 0; first < n; first += count) {
    count = std::min(chunk, n - first);
    link.all_gather(parent + first, gathered, count, nullptr);
    link_gathered<<<blocks_for(count), kThreads>>>(parent, gathered, first, count, link.size(),
                                                   link.rank());
    finish(doing);
  }
  compress<<<blocks_for(n), kThreads>>>(parent, n);
  finish(doing);
}

}  // namespace ooc::detail
